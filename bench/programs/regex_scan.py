# A `re`-heavy text scan, as an agent's snippet parses a tool's log output: compiled patterns, findall,
# match groups, sub, and counting with a dict.
import re

LINE = re.compile(r"^(\d{4}-\d\d-\d\d)T(\d\d):\d\d:\d\d (INFO|WARN|ERROR) \[([a-z.]+)\] (.*)$")
NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
WORD = re.compile(r"[A-Za-z_]+")


def make_log(n):
    levels = ("INFO", "WARN", "ERROR", "INFO")
    services = ("api.gateway", "db.pool", "auth", "jobs.worker")
    lines = []
    for i in range(n):
        lines.append(
            f"2026-11-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{(i * 7) % 60:02d} {levels[i % 4]} "
            f"[{services[i % 3 + (i % 2)]}] request {i} took {i % 997}.{i % 10}ms user=u{i % 131} path=/v1/items/{i % 50}"
        )
    return "\n".join(lines)


def main():
    text = make_log(6000)
    by_level = {}
    slow = 0
    words = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if m is None:
            continue
        day, hour, level, service, message = m.groups()
        key = (level, service)
        by_level[key] = by_level.get(key, 0) + 1
        numbers = NUMBER.findall(message)
        if float(numbers[1]) > 500:
            slow += 1
        for w in WORD.findall(message):
            words[w] = words.get(w, 0) + 1
    redacted = re.sub(r"user=u\d+", "user=?", text)
    return (len(by_level), slow, len(words), len(redacted))
