# Dataclass and class-attribute churn: records built, compared, updated and summarised, with class
# attributes and properties, as an agent's snippet models a tool's results.
from dataclasses import dataclass, field


@dataclass
class Item:
    sku: str
    price: float
    qty: int
    tags: list = field(default_factory=list)

    TAX = 0.2

    @property
    def total(self):
        return self.price * self.qty * (1 + self.TAX)


@dataclass(frozen=True)
class Key:
    region: str
    tier: int


def main():
    items = [Item("sku-" + str(i), (i % 97) * 1.25, i % 7, ["t" + str(i % 5)]) for i in range(20000)]
    totals = {}
    for i, item in enumerate(items):
        key = Key("eu" if i % 3 else "us", item.qty % 3)
        totals[key] = totals.get(key, 0.0) + item.total
        if item.qty == 0:
            item.qty = 1
            item.tags.append("restocked")
    same = sum(1 for a, b in zip(items, items[1:]) if a == b)
    restocked = sum(1 for it in items if "restocked" in it.tags)
    return (len(totals), round(sum(totals.values()), 2), same, restocked)
