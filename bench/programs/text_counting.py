# Text splitting and counting: words, bigrams and line statistics over a generated document, with str
# methods and dict counting.
def main():
    vocab = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
             "Lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"]
    lines = []
    for i in range(8000):
        words = [vocab[(i * k + k * k) % len(vocab)] for k in range(1, 12)]
        lines.append(" ".join(words) + (", " if i % 3 else ". ") + str(i))
    text = "\n".join(lines)
    counts = {}
    bigrams = {}
    longest = 0
    for line in text.split("\n"):
        tokens = line.lower().replace(",", " ").replace(".", " ").split()
        longest = max(longest, len(line))
        prev = None
        for t in tokens:
            if t.isdigit():
                continue
            counts[t] = counts.get(t, 0) + 1
            if prev is not None:
                pair = prev + " " + t
                bigrams[pair] = bigrams.get(pair, 0) + 1
            prev = t
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    return (len(counts), len(bigrams), longest, top[0][0])
