# Group-by over 40,000 records: totals, counts and means per (region, product), the best seller per region.
REGIONS = ["north", "south", "east", "west", "central"]
PRODUCTS = ["widget", "gadget", "doohickey", "gizmo", "sprocket", "flange", "bracket"]


def records(n):
    out = []
    for i in range(n):
        out.append({
            "order": i,
            "region": REGIONS[(i * 7) % len(REGIONS)],
            "product": PRODUCTS[(i * 13 + i // 5) % len(PRODUCTS)],
            "qty": 1 + (i * 31) % 9,
            "price": 2.5 + ((i * 17) % 40) / 4,
        })
    return out


def main():
    rows = records(40000)
    groups = {}
    for row in rows:
        key = (row["region"], row["product"])
        g = groups.get(key)
        if g is None:
            g = groups[key] = {"orders": 0, "units": 0, "revenue": 0.0}
        g["orders"] += 1
        g["units"] += row["qty"]
        g["revenue"] += row["qty"] * row["price"]
    best = {}
    for (region, product), g in groups.items():
        mean = g["revenue"] / g["orders"]
        if region not in best or mean > best[region][1]:
            best[region] = (product, round(mean, 3))
    big = [k for k, g in groups.items() if g["units"] > 5500]
    return (len(groups), sorted(best.items()), sorted(big)[:3])
