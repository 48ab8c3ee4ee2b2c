# Sorting with keys: records sorted several ways (tuples of keys, a reversed key, a computed key), then
# ranked within groups.
def main():
    people = []
    for i in range(20000):
        people.append({
            "name": "p" + str((i * 7919) % 20011),
            "team": "t" + str(i % 37),
            "score": (i * 104729) % 1000,
            "age": 20 + (i * 31) % 45,
        })
    by_team_score = sorted(people, key=lambda p: (p["team"], -p["score"], p["name"]))
    by_age = sorted(people, key=lambda p: p["age"], reverse=True)
    by_len = sorted(people, key=lambda p: (len(p["name"]), p["name"]))
    ranks = {}
    for p in by_team_score:
        ranks.setdefault(p["team"], []).append(p["name"])
    leaders = sorted((team, names[0]) for team, names in ranks.items())[:3]
    return (by_team_score[0]["name"], by_age[0]["age"], by_len[-1]["name"], leaders)
