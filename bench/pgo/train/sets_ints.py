# Training program for the profile-guided build (bench/pgo): sets, bit operations, big integers,
# a sieve, divmod, gcd, fractions and decimals.
import math
from decimal import Decimal
from fractions import Fraction


def sieve(n):
    flags = bytearray([1]) * (n + 1)
    flags[0] = flags[1] = 0
    for i in range(2, int(n ** 0.5) + 1):
        if flags[i]:
            flags[i * i :: i] = bytearray(len(range(i * i, n + 1, i)))
    return [i for i, f in enumerate(flags) if f]


def main():
    primes = sieve(60000)
    pset = set(primes)
    twins = sum(1 for p in primes if p + 2 in pset)
    a = {i * 3 % 1001 for i in range(5000)}
    b = frozenset(i * 7 % 1001 for i in range(5000))
    setops = len(a | b), len(a & b), len(a - b), len(a ^ b)
    bits = sum(bin(i).count("1") for i in range(20000)) + sum((i << 3) ^ (i >> 2) & 0xFF for i in range(20000))
    big = math.factorial(300) // math.factorial(290)
    digits = sum(int(d) for d in str(2 ** 2000))
    g = sum(math.gcd(i, 360) for i in range(1, 20000))
    q, r = divmod(10 ** 30 + 7, 97)
    frac = sum(Fraction(1, k) for k in range(1, 60))
    dec = sum(Decimal(i) / Decimal(7) for i in range(1, 400))
    return len(primes), twins, setops, bits, big % 1000003, digits, g, r, frac.denominator % 1000, str(dec)[:12]

return main()
