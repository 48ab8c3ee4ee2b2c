# Float loops: escape times of a small Mandelbrot grid, then a histogram of them.
def escape(cr, ci, limit):
    zr = zi = 0.0
    for i in range(limit):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return i
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
    return limit


def main():
    width, height, limit = 96, 64, 80
    counts = {}
    inside = 0
    for y in range(height):
        ci = -1.2 + 2.4 * y / height
        for x in range(width):
            cr = -2.1 + 3.0 * x / width
            n = escape(cr, ci, limit)
            if n == limit:
                inside += 1
            counts[n] = counts.get(n, 0) + 1
    return (inside, len(counts), max(counts.values()))
