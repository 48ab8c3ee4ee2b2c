# Training program for the profile-guided build (bench/pgo): nested JSON documents built, dumped,
# parsed and walked; dict comprehensions, get with defaults, list slicing, a round trip through the result store.
import json


def walk(node, depth=0):
    if isinstance(node, dict):
        return sum(walk(v, depth + 1) for v in node.values()) + len(node)
    if isinstance(node, list):
        return sum(walk(v, depth + 1) for v in node)
    return 1


def main():
    docs = []
    for i in range(2500):
        docs.append({
            "id": i,
            "user": {"name": f"user-{i}", "email": f"u{i}@example.com", "active": i % 4 != 0},
            "orders": [{"n": j, "total": round(j * 1.25 + i % 10, 2), "items": ["x"] * (j % 4)} for j in range(i % 6)],
            "meta": {"score": i / 7, "tags": ["a", "b"][: i % 3]},
        })
    text = json.dumps(docs)
    back = json.loads(text)
    active = [d for d in back if d["user"]["active"]]
    totals = {d["id"]: sum(o["total"] for o in d["orders"]) for d in active}
    best = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    pretty = json.dumps(back[:50], indent=2, sort_keys=True)
    nodes = walk(back)
    return len(text), len(active), best[0], len(pretty), nodes, best


*summary, best = main()
again = await load_result(await save_result(best, label="best"))
return summary, again == json.loads(json.dumps(best))
