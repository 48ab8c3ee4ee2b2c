# Spectral norm of an infinite matrix (the Benchmarks Game's, as in pyperformance): nested loops, integer
# and float arithmetic, function calls in the inner loop.
def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def eval_times_u(n, u):
    return [sum(eval_a(i, j) * u[j] for j in range(n)) for i in range(n)]


def eval_times_u_t(n, u):
    return [sum(eval_a(j, i) * u[j] for j in range(n)) for i in range(n)]


def eval_ata_times_u(n, u):
    return eval_times_u_t(n, eval_times_u(n, u))


def main():
    n = 64
    u = [1.0] * n
    for _ in range(10):
        v = eval_ata_times_u(n, u)
        u = eval_ata_times_u(n, v)
    vbv = vv = 0.0
    for ue, ve in zip(u, v):
        vbv += ue * ve
        vv += ve * ve
    return round((vbv / vv) ** 0.5, 9)
