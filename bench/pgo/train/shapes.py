# Training program for the profile-guided build (bench/pgo): a class hierarchy with super(),
# properties, dunder methods, isinstance dispatch, dataclasses, enums and sorting of objects.
import math
from dataclasses import dataclass, field
from enum import Enum


class Kind(Enum):
    CIRCLE = 1
    RECT = 2
    TRIANGLE = 3


class Shape:
    count = 0

    def __init__(self, kind, name):
        self.kind = kind
        self.name = name
        Shape.count += 1

    @property
    def area(self):
        raise NotImplementedError

    def __lt__(self, other):
        return self.area < other.area

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.area:.2f})"


class Circle(Shape):
    def __init__(self, name, r):
        super().__init__(Kind.CIRCLE, name)
        self.r = r

    @property
    def area(self):
        return math.pi * self.r * self.r


class Rect(Shape):
    def __init__(self, name, w, h):
        super().__init__(Kind.RECT, name)
        self.w, self.h = w, h

    @property
    def area(self):
        return self.w * self.h


class Triangle(Shape):
    def __init__(self, name, a, b, c):
        super().__init__(Kind.TRIANGLE, name)
        self.sides = (a, b, c)

    @property
    def area(self):
        a, b, c = self.sides
        s = (a + b + c) / 2
        return math.sqrt(max(s * (s - a) * (s - b) * (s - c), 0.0))


@dataclass(order=True)
class Vec:
    x: float
    y: float
    tags: list = field(default_factory=list, compare=False)

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __abs__(self):
        return math.hypot(self.x, self.y)


def main():
    shapes = []
    for i in range(6000):
        if i % 3 == 0:
            shapes.append(Circle(f"c{i}", (i % 9) + 0.5))
        elif i % 3 == 1:
            shapes.append(Rect(f"r{i}", i % 7 + 1, i % 5 + 1))
        else:
            shapes.append(Triangle(f"t{i}", 3 + i % 4, 4 + i % 3, 5))
    shapes.sort()
    by_kind = {}
    for s in shapes:
        by_kind[s.kind.name] = by_kind.get(s.kind.name, 0.0) + s.area
    circles = sum(1 for s in shapes if isinstance(s, Circle))
    total = Vec(0.0, 0.0)
    for i in range(8000):
        total = total + Vec(i % 3 - 1.0, i % 5 - 2.0)
    vs = sorted(Vec(i % 13, -i % 7) for i in range(3000))
    return repr(shapes[0]), {k: round(v, 2) for k, v in by_kind.items()}, circles, abs(total), vs[0].x, Shape.count

return main()
