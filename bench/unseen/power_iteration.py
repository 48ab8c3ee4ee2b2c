# Numeric kernel over lists: power iteration for the dominant eigenvalue of a dense matrix.
def matvec(m, v):
    return [sum(row[j] * v[j] for j in range(len(v))) for row in m]


def norm(v):
    return sum(x * x for x in v) ** 0.5


def main():
    n = 90
    m = [[1.0 / (1 + abs(i - j)) + (0.5 if i == j else 0.0) for j in range(n)] for i in range(n)]
    v = [1.0] * n
    value = 0.0
    for _ in range(40):
        w = matvec(m, v)
        value = norm(w)
        v = [x / value for x in w]
    return round(value, 6)
