"""The paired bootstrap written out from its definition, with the same generator, for
toolscope's agreement test: ChaCha8 (64-bit block counter, stream 0) seeded as rand_core's
`SeedableRng::seed_from_u64` seeds it (PCG32 filling the 32-byte key), 64-bit draws taken as two
32-bit words low first, an index below n by rejection on 64 bits, and NumPy's linear percentile.

Input (stdin, JSON): {"cases": [[base_num, base_den, current_num, current_den], ...],
"resamples": R, "seed": S}. The statistic on a resample is sum(current_num) / sum(current_den) -
sum(base_num) / sum(base_den), NaN when a denominator is 0 (left out). Output: {"interval":
[low, high]} or {"interval": null}.
"""

import json
import math
import sys

import numpy as np

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF


def pcg32(state):
    state = (state * 0x5851F42D4C957F2D + 0xA17654E46FBE17F3) & MASK64
    xorshifted = (((state >> 18) ^ state) >> 27) & MASK32
    rot = state >> 59
    return state, ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & MASK32


def seed_from_u64(state):
    key = []
    for _ in range(8):
        state, word = pcg32(state)
        key.append(word)
    return key


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK32


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK32; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK32; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK32; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK32; s[b] = rotl(s[b] ^ s[c], 7)


def chacha8_block(key, counter):
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + key + [
        counter & MASK32, counter >> 32, 0, 0]
    s = list(state)
    for _ in range(4):
        quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13)
        quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15)
        quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12)
        quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14)
    return [(x + y) & MASK32 for x, y in zip(s, state)]


class ChaCha8:
    def __init__(self, seed):
        self.key = seed_from_u64(seed)
        self.counter = 0
        self.words = []

    def next_u64(self):
        if len(self.words) < 2:
            self.words += chacha8_block(self.key, self.counter)
            self.counter += 1
        low, high = self.words[0], self.words[1]
        del self.words[:2]
        return (high << 32) | low

    def below(self, bound):
        zone = MASK64 - (MASK64 % bound)
        while True:
            value = self.next_u64()
            if value < zone:
                return value % bound


request = json.load(sys.stdin)
cases, resamples = request["cases"], request["resamples"]
generator = ChaCha8(request["seed"])
values = []
for _ in range(resamples):
    sample = [cases[generator.below(len(cases))] for _ in range(len(cases))]
    bn = sum(case[0] for case in sample); bd = sum(case[1] for case in sample)
    an = sum(case[2] for case in sample); ad = sum(case[3] for case in sample)
    values.append(an / ad - bn / bd if ad and bd else math.nan)
values = [value for value in values if not math.isnan(value)]
interval = None
if values:
    interval = [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]
json.dump({"interval": interval}, sys.stdout)
