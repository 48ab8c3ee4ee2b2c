# Closures: decorators that count and memoise, callbacks registered in a table, accumulators made in loops.
def counting(fn):
    calls = [0]

    def wrapper(*args):
        calls[0] += 1
        return fn(*args)
    wrapper.calls = calls
    return wrapper


def memo(fn):
    cache = {}

    def wrapper(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]
    return wrapper


def make_acc(start):
    total = start

    def add(x):
        nonlocal total
        total += x
        return total
    return add


def main():
    scale = counting(lambda x, k: x * k)
    square = memo(lambda n: n * n)
    handlers = {}
    for name, k in (("double", 2), ("triple", 3), ("neg", -1)):
        handlers[name] = (lambda k: lambda x: scale(x, k))(k)
    acc = make_acc(0)
    names = sorted(handlers)
    for i in range(40000):
        acc(handlers[names[i % 3]](i) + square(i % 100))
    return (acc(0), scale.calls[0])
