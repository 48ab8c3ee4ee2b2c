# Float: make, normalise and reduce many small objects with float attributes (pyperformance's `float`):
# object creation, attribute reads and writes, math calls, method calls.
import math


class Point:
    def __init__(self, i):
        self.x = x = math.sin(i)
        self.y = math.cos(i) * 3
        self.z = (x * x) / 2

    def normalize(self):
        x = self.x
        y = self.y
        z = self.z
        norm = math.sqrt(x * x + y * y + z * z)
        self.x /= norm
        self.y /= norm
        self.z /= norm

    def maximize(self, other):
        self.x = self.x if self.x > other.x else other.x
        self.y = self.y if self.y > other.y else other.y
        self.z = self.z if self.z > other.z else other.z
        return self


def main():
    points = [Point(i) for i in range(40000)]
    for p in points:
        p.normalize()
    best = points[0]
    for p in points[1:]:
        best = best.maximize(p)
    return round(best.x + best.y + best.z, 9)
