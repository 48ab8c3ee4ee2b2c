# Training program for the profile-guided build (bench/pgo): records as dicts and tuples, grouping,
# sorting with keys, string formatting, collections.
from collections import Counter, defaultdict, namedtuple
from operator import itemgetter

Item = namedtuple("Item", "sku region qty price")


def main():
    regions = ["north", "south", "east", "west", "central"]
    items = [Item(f"SKU-{i % 700:04d}", regions[i % 5], (i * 7) % 23 + 1, ((i * 13) % 997) / 10) for i in range(25000)]
    by_region = defaultdict(list)
    for it in items:
        by_region[it.region].append(it)
    report = []
    for region, rows in sorted(by_region.items()):
        revenue = sum(r.qty * r.price for r in rows)
        top = sorted(rows, key=lambda r: (-r.qty * r.price, r.sku))[:3]
        report.append("{:<8} {:>12.2f} {}".format(region, revenue, ",".join(t.sku for t in top)))
    counts = Counter(it.sku for it in items)
    common = counts.most_common(5)
    stock = {}
    for it in items:
        entry = stock.setdefault(it.sku, {"qty": 0, "value": 0.0, "regions": set()})
        entry["qty"] += it.qty
        entry["value"] += it.qty * it.price
        entry["regions"].add(it.region)
    rows = [(sku, e["qty"], round(e["value"], 2), len(e["regions"])) for sku, e in stock.items()]
    rows.sort(key=itemgetter(2), reverse=True)
    cheap = [r for r in rows if r[2] < 500 and r[3] > 2]
    lines = [f"{sku}: {qty} units, {value:,.2f} in {n} regions" for sku, qty, value, n in rows[:200]]
    return len(report), report[0], common[0], len(cheap), sum(len(l) for l in lines)

return main()
