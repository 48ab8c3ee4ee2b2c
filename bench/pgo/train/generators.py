# Training program for the profile-guided build (bench/pgo): generator pipelines, yield from,
# itertools, comprehensions and builtins over iterators.
import itertools


def numbers(limit):
    n = 0
    while n < limit:
        yield n
        n += 1


def windows(items, size):
    buf = []
    for item in items:
        buf.append(item)
        if len(buf) == size:
            yield tuple(buf)
            buf.pop(0)


def flatten(nested):
    for item in nested:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item


def main():
    evens = (n for n in numbers(60000) if n % 2 == 0)
    squares = sum(n * n for n in evens)
    spans = sum(max(w) - min(w) for w in windows(numbers(20000), 4))
    nested = [[i, [i + 1, [i + 2, i + 3]], i + 4] for i in range(4000)]
    flat = sum(flatten(nested))
    pairs = list(itertools.islice(itertools.combinations(range(60), 2), 1500))
    grouped = {k: len(list(g)) for k, g in itertools.groupby(sorted(p[0] % 7 for p in pairs))}
    chained = sum(1 for _ in itertools.chain(range(3000), "abcdef" * 500, (x for x in range(2000))))
    zipped = sum(a * b for a, b in zip(range(20000), itertools.count(3, 2)))
    acc = list(itertools.accumulate(range(3000)))[-1]
    anyall = sum(1 for i in range(4000) if any(j > i % 50 for j in range(10)) and all(j >= 0 for j in range(5)))
    enum = sum(i * len(s) for i, s in enumerate(map(str, range(10000))))
    return squares, spans, flat, grouped, chained, zipped, acc, anyall, enum

return main()
