# Training program for the profile-guided build (bench/pgo): lists of lists, float arithmetic,
# zip, transposition, Gaussian elimination.
def matmul(a, b):
    bt = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]


def solve(m, v):
    n = len(m)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        for r in range(col + 1, n):
            f = a[r][col] / p
            row, prow = a[r], a[col]
            for c in range(col, n + 1):
                row[c] -= f * prow[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def main():
    n = 40
    a = [[((i * 31 + j * 17) % 13) / 7 + (3.0 if i == j else 0.0) for j in range(n)] for i in range(n)]
    b = [[((i + 2 * j) % 5) - 2.0 for j in range(n)] for i in range(n)]
    c = matmul(a, b)
    x = solve(a, [float(i) for i in range(n)])
    trace = sum(c[i][i] for i in range(n))
    return round(trace, 6), round(sum(x), 6)

return main()
