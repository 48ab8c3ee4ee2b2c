# Training program for the profile-guided build (bench/pgo): the call shapes of agents' helpers beyond
# exact positional calls — keyword arguments, defaults, `*args` and `**kwargs` forwarding in decorators,
# keyword-only parameters, bound-method objects kept in tables, and a retry helper.
def logged(fn):
    seen = []

    def inner(*args, **kwargs):
        seen.append(len(args) + len(kwargs))
        return fn(*args, **kwargs)

    inner.seen = seen
    return inner


def timed(fn):
    def inner(*args):
        return fn(*args)

    return inner


@logged
def price(qty, unit=1.5, *, discount=0.0, tax=0.2):
    return round(qty * unit * (1 - discount) * (1 + tax), 2)


@timed
def clamp(value, low=0, high=100):
    return low if value < low else high if value > high else value


def fmt_row(name, *values, sep=", ", width=6):
    return name.ljust(width) + sep.join(str(v) for v in values)


class Ledger:
    def __init__(self, owner, currency="EUR"):
        self.owner = owner
        self.currency = currency
        self.lines = []

    def add(self, amount, note="", *, tag=None):
        self.lines.append((amount, note, tag))
        return self

    def total(self, tag=None):
        return sum(a for a, _, t in self.lines if tag is None or t == tag)


def retry(action, attempts=3, **options):
    last = None
    for attempt in range(attempts):
        try:
            return action(attempt, **options)
        except ValueError as error:
            last = error
    return str(last)


def flaky(attempt, fail_below=1, scale=10):
    if attempt < fail_below:
        raise ValueError("attempt %d failed" % attempt)
    return attempt * scale


def main():
    total = 0.0
    for i in range(3000):
        total += price(i % 17, discount=0.1 if i % 3 else 0.0)
        total += price(i % 5, 2.0)
        total += clamp(i % 130 - 10)
        total += clamp(i % 50, 0, 40)
    rows = [fmt_row("r%d" % i, i, i * 2, i * 3, sep="|") for i in range(2000)]
    ledger = Ledger("ops")
    add = ledger.add
    for i in range(4000):
        add(i % 9, note="n", tag=("a", "b", None)[i % 3])
        ledger.add(1)
    handlers = {"double": lambda x, k=2: x * k, "shift": lambda x, by=3: x + by}
    acc = 0
    for i in range(6000):
        acc += handlers["double" if i % 2 else "shift"](i)
        acc += handlers["double"](i, k=3)
    retried = [retry(flaky, fail_below=i % 4, scale=i) for i in range(1500)]
    return (round(total, 2), len(price.seen), len(rows[-1]), ledger.total(), ledger.total(tag="a"), acc,
            retried[:4])


return main()
