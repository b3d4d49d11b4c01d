"""The LDS shadow against a reference that remembers every access: the bytes on
which it reports races are exactly the bytes on which two waves of one epoch
touch the same byte with a write, for random mixes of byte, half and dword
accesses (so dwords split into byte slots on the way)."""

import numpy as np
import pytest

from amdgpu_tools.analysis.lds_shadow import WAVE, LdsShadow

SIZE = 64


def reference_races(accesses):
    """Racing bytes, from every (epoch, wave, byte, write) seen so far."""
    seen = []                                   # per access: set of (wave, byte, write)
    racing = set()
    for epoch, touches, write in accesses:
        now = {(wave, byte) for wave, byte in touches}
        for wave, byte in now:                  # waves of one access are concurrent
            if write and any(w != wave and b == byte for w, b in now):
                racing.add(byte)
        for other_epoch, other, other_write in seen:
            if other_epoch != epoch or not (write or other_write):
                continue
            for wave, byte in now:
                if any(w != wave and b == byte for w, b in other):
                    racing.add(byte)
        seen.append((epoch, now, write))
    return racing


def random_accesses(rng, phases=3, per_phase=6, waves=4):
    accesses = []
    for epoch in range(phases):
        for _ in range(per_phase):
            size = int(rng.choice([1, 2, 4, 8]))
            lanes = int(rng.integers(1, 6))
            starts = rng.integers(0, SIZE // size, lanes) * size
            owners = np.sort(rng.integers(0, waves, lanes))     # lanes in wave order
            accesses.append((epoch, starts.astype(np.int64), size, owners.astype(np.int64),
                             bool(rng.random() < 0.4)))
    return accesses


@pytest.mark.parametrize("seed", range(200))
def test_reported_bytes_equal_the_racing_bytes(seed):
    rng = np.random.default_rng(seed)
    accesses = random_accesses(rng)
    shadow = LdsShadow(SIZE)
    reported = set()
    for pc, (epoch, starts, size, owners, write) in enumerate(accesses):
        key = (np.int64(epoch) << 32) | owners
        for found in shadow.access(starts, size, key, write, pc):
            assert found.key >> 32 == found.source_key >> 32 == epoch
            assert found.key & WAVE != found.source_key & WAVE
            assert write or found.source_writes
            reported.update(found.bytes.tolist())
    racing = reference_races([(epoch, [(int(w), int(s) + k) for s, w in zip(starts, owners)
                                       for k in range(size)], write)
                              for epoch, starts, size, owners, write in accesses])
    assert reported == racing


def test_a_dword_write_and_a_byte_read_of_it():
    shadow = LdsShadow(SIZE)
    assert shadow.access(np.array([8]), 4, np.array([0]), True, 1) == []
    (found,) = shadow.access(np.array([10]), 1, np.array([1]), False, 2)
    assert (found.byte, found.source_pc, found.source_writes, found.count) == (10, 1, True, 1)


def test_bytes_of_one_dword_written_by_two_waves_do_not_race():
    shadow = LdsShadow(SIZE)
    assert shadow.access(np.array([0, 1]), 1, np.array([0, 1]), True, 1) == []
    (found,) = shadow.access(np.array([0]), 4, np.array([2]), False, 2)
    assert (found.byte, found.count) == (0, 2)          # bytes 0 and 1, not 2 and 3


def test_other_epochs_do_not_race():
    shadow = LdsShadow(SIZE)
    assert shadow.access(np.array([0]), 4, np.array([0]), True, 1) == []
    assert shadow.access(np.array([0]), 4, np.array([(1 << 32) | 1]), True, 2) == []
