# Training program for the profile-guided build (bench/pgo): string methods, slicing, formatting,
# regular expressions, textwrap, base64 and hashing of text.
import base64
import hashlib
import re
import textwrap

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho".split()


def main():
    lines = [" ".join(WORDS[(i * k) % len(WORDS)] for k in range(1, 9)) + f" #{i} {i * 3.5:.1f}" for i in range(6000)]
    text = "\n".join(lines)
    upper = sum(1 for line in lines if line.upper().startswith("ALPHA"))
    replaced = text.replace("beta", "BETA").count("BETA")
    found = sum(line.find("pi") for line in lines)
    parts = [line.split(" #")[1].partition(" ")[0] for line in lines]
    numbers = sum(int(p) for p in parts if p.isdigit())
    pattern = re.compile(r"(\w+) (\w+) #(\d+) (\d+\.\d)")
    matched = sum(float(m.group(4)) for m in pattern.finditer(text))
    subbed = len(re.sub(r"\b(\w)(\w*)\b", lambda m: m.group(1).upper() + m.group(2), text[:40000]))
    wrapped = textwrap.wrap(text[:20000], width=60)
    encoded = base64.b64encode(text[:30000].encode()).decode()
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    title = "".join(w[:1].upper() + w[1:] for w in WORDS)
    centered = "|".join(w.center(10, ".") for w in WORDS)
    joined = ",".join(reversed(WORDS)).strip(",").lower()
    return upper, replaced, found, numbers, round(matched, 1), subbed, len(wrapped), len(encoded), digest, title, len(centered), len(joined)

return main()
