# JSON shaping over 50,000 records, an agent's usual post-processing of a tool's result: filter, group by,
# aggregate, sort by a key and project.
def main():
    rows = [
        {"id": i, "team": "team-" + str(i % 37), "status": ("open", "closed", "stale")[i % 3],
         "points": (i * 7919) % 101, "owner": {"name": "user" + str(i % 211), "active": i % 4 != 0}}
        for i in range(50000)
    ]
    open_rows = [r for r in rows if r["status"] != "closed" and r["owner"]["active"]]
    groups = {}
    for r in open_rows:
        g = groups.get(r["team"])
        if g is None:
            g = groups[r["team"]] = {"team": r["team"], "count": 0, "points": 0, "owners": set()}
        g["count"] += 1
        g["points"] += r["points"]
        g["owners"].add(r["owner"]["name"])
    summary = sorted(
        ({"team": g["team"], "count": g["count"], "avg": round(g["points"] / g["count"], 2),
          "owners": len(g["owners"])} for g in groups.values()),
        key=lambda s: (-s["avg"], s["team"]),
    )
    top = sorted(open_rows, key=lambda r: (r["points"], r["id"]), reverse=True)[:100]
    return (len(open_rows), summary[0]["team"], top[0]["id"], sum(s["owners"] for s in summary))
