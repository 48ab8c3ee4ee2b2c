# Training program for the profile-guided build (bench/pgo): plain loops over ints — Collatz
# lengths, digit sums, trial division, a running checksum with comparisons and augmented assignment.
def collatz_length(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def digit_sum(n):
    s = 0
    while n:
        s += n % 10
        n //= 10
    return s


def is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


def main():
    longest = max(range(1, 6000), key=collatz_length)
    digits = sum(digit_sum(i) for i in range(60000))
    primes = sum(1 for i in range(20000) if is_prime(i))
    checksum, a, b = 0, 1, 0
    for i in range(120000):
        a = (a * 31 + i) % 1000003
        b += a if a > 500000 else -a
        checksum ^= a
    return longest, digits, primes, checksum, b

return main()
