"""The starting state of ``numpy.random.default_rng(seed)``, computed without numpy.random.

sacreBLEU resamples with ``default_rng(seed)``: a PCG64 generator (128-bit LCG, XSL-RR output)
seeded through a ``SeedSequence`` of the seed. The C extension draws a seeded bootstrap's
indices itself (``count_seeded_draws``): it makes the same stream from the same starting state
and counts the draws as it makes them, where numpy would first write an int64 array of them,
and a ``-pbs`` or ``-ci`` run then never imports ``numpy.random`` (39M instructions, 3% of a
``-pbs`` run over 8 WMT22 systems with BLEU and chrF, counted with valgrind).
This module gives that state for any non-negative integer seed; the tests check it against
``default_rng(seed).bit_generator.state`` and the C stream against ``rng.integers``.

Why pure Python: it runs once per run, a few hundred integer operations, and it is the one
piece of numpy's seeding that the C stream depends on; written out here it is readable next to
numpy's own (``numpy/random/bit_generator.pyx``, after M.E. O'Neill's ``seed_seq_fe``).
"""

from __future__ import annotations

_MASK32 = 0xFFFF_FFFF
_MASK128 = (1 << 128) - 1

# SeedSequence's hashing constants (numpy.random.bit_generator).
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_POOL_SIZE = 4

#: PCG's default 128-bit LCG multiplier, which numpy's PCG64 steps with.
PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645


def _entropy_words(seed: int) -> list[int]:
    """The seed as 32-bit words, least significant first (``[0]`` for 0), as SeedSequence takes an int."""
    words = []
    while True:
        words.append(seed & _MASK32)
        seed >>= 32
        if seed == 0:
            return words


def _pool(seed: int) -> list[int]:
    """SeedSequence's entropy pool (``pool``) for an int seed without a spawn key."""
    entropy = _entropy_words(seed)
    hash_const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value = (value ^ hash_const) & _MASK32
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = (value * hash_const) & _MASK32
        return value ^ (value >> _XSHIFT)

    def mix(x: int, y: int) -> int:
        result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
        return result ^ (result >> _XSHIFT)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(_POOL_SIZE)]
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for word in entropy[_POOL_SIZE:]:
        for dst in range(_POOL_SIZE):
            pool[dst] = mix(pool[dst], hashmix(word))
    return pool


def _generate_state64(pool: list[int], n_words: int) -> list[int]:
    """SeedSequence.generate_state(n_words, uint64): 32-bit words paired little-endian."""
    hash_const = _INIT_B
    words32 = []
    for i in range(2 * n_words):
        value = (pool[i % len(pool)] ^ hash_const) & _MASK32
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        words32.append(value ^ (value >> _XSHIFT))
    return [words32[2 * i] | (words32[2 * i + 1] << 32) for i in range(n_words)]


def _step(state: int, inc: int) -> int:
    return (state * PCG64_MULTIPLIER + inc) & _MASK128


def pcg64_state(seed: int) -> tuple[int, int]:
    """``(state, inc)`` of ``default_rng(seed)``'s PCG64 before its first draw (both 128-bit ints).

    ``seed`` must be a non-negative int (``check_seed``'s rule).
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a PCG64 seed is a non-negative integer, got {seed!r}")
    words = _generate_state64(_pool(seed), 4)
    initial = (words[0] << 64) | words[1]
    inc = (((words[2] << 64) | words[3]) << 1 | 1) & _MASK128
    state = _step(0, inc)
    state = _step((state + initial) & _MASK128, inc)
    return state, inc
