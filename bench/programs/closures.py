# Closures and higher-order functions: counters, adders and composed functions made and called in loops,
# map/filter with lambdas.
def make_counter():
    count = 0

    def step(by):
        nonlocal count
        count += by
        return count
    return step


def compose(f, g):
    return lambda x: f(g(x))


def main():
    counter = make_counter()
    adders = [(lambda k: (lambda x: x + k))(k) for k in range(10)]
    double = lambda x: x * 2
    pipeline = compose(double, adders[3])
    total = 0
    for i in range(60000):
        total += pipeline(i) + counter(1)
        total += adders[i % 10](i)
    evens = list(filter(lambda v: v % 2 == 0, map(lambda v: v * 3, range(30000))))
    return (total, len(evens), counter(0))
