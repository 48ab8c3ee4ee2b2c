# Text splitting and counting: a generated log is split into lines and fields, words are normalised and
# counted, and the most common words and the busiest hours are reported.
WORDS = ("request served cache miss hit user login logout error timeout retry upstream db query slow "
         "fast ok warn disk full write read socket closed opened").split()


def make_log(n):
    lines = []
    for i in range(n):
        hour = (i * 7) % 24
        level = ("INFO", "WARN", "ERROR")[(i * 11) % 3 if i % 5 else 0]
        msg = " ".join(WORDS[(i * k + k) % len(WORDS)] for k in (1, 3, 5, 7, 11))
        lines.append(f"2026-12-05T{hour:02d}:{i % 60:02d}:00 [{level}] {msg.capitalize()}, id={i}.")
    return "\n".join(lines)


def main():
    text = make_log(6000)
    words = {}
    hours = {}
    levels = {}
    for line in text.split("\n"):
        stamp, level, rest = line.split(" ", 2)
        hour = stamp[11:13]
        hours[hour] = hours.get(hour, 0) + 1
        levels[level] = levels.get(level, 0) + 1
        for word in rest.split():
            word = word.strip(".,").lower()
            if word.isalpha():
                words[word] = words.get(word, 0) + 1
    top = sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    busiest = max(hours, key=hours.get)
    return (len(words), top, busiest, sorted(levels.items()))
