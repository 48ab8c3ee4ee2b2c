# Sorting with keys: records sorted by lambdas, tuple keys and several passes, then deduplicated.
def main():
    rows = [(i * 2654435761 % 1000003, "name-" + str(i % 1000), i % 13) for i in range(40000)]
    by_score = sorted(rows, key=lambda r: r[0])
    by_name = sorted(rows, key=lambda r: (r[1], -r[0]))
    by_group = sorted(rows, key=lambda r: r[2], reverse=True)
    seen = set()
    unique = []
    for r in by_name:
        if r[1] not in seen:
            seen.add(r[1])
            unique.append(r)
    return (by_score[0][0], by_name[0][1], by_group[0][2], len(unique))
