"""End to end: MGPUSim's own gfx803 code objects (bench/data/mgpusim) run by
the executor with bench/mgpusim's host programs at small sizes, checked
against NumPy. Skips when the recorded code objects are absent."""

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

import importlib  # noqa: E402

from bench.mgpusim import TARGET, Session, code_object  # noqa: E402
from bench.mgpusim import matrixmultiplication, nbody, nw  # noqa: E402

#: the other benchmarks at sizes of a second or less: (module, run's arguments)
SMALL = {
    "fir": {"length": 1024, "taps": 16},
    "relu": {"length": 1000},
    "matrixtranspose": {"width": 128},
    "atax": {"nx": 256, "ny": 256},
    "bicg": {"nx": 300, "ny": 300},
    "bitonicsort": {"length": 512},
    "floydwarshall": {"nodes": 24},
    "fastwalshtransform": {"length": 2048},
    "kmeans": {"points": 512, "clusters": 4, "features": 8, "max_iter": 3},
    "simpleconvolution": {"width": 70, "height": 33, "mask_size": 3},
    "matrixmultiplication": {"x": 64, "y": 64, "z": 96},
    "stencil2d": {"rows": 34, "cols": 130, "iterations": 3},
    "spmv": {"dim": 512, "sparsity": 0.02},
    "pagerank": {"nodes": 128, "sparsity": 0.05, "iterations": 4},
    "aes": {"length": 4096},
    "bfs": {"nodes": 300, "degree": 4},
    "fft": {"nbytes": 16384, "passes": 2},
}


def session(name):
    if code_object(name) is None:
        pytest.skip(f"bench/data/mgpusim/{name}.hsaco is absent")
    from amdgpu_tools import Device
    return Session(Device(TARGET), name)


def test_nw_rodinia_order_is_needleman_wunsch():
    # 192 = 3 tiles a side: kernel1 blk 1..3, kernel2 blk 2, 1
    outcome = nw.run(session("nw"), length=192, order="rodinia")
    assert outcome.ok, outcome.detail
    assert outcome.launches == 5
    assert outcome.detail.endswith("equals NW")


def test_nw_mgpusim_order_matches_its_tile_replay():
    # 256 = 4 tiles a side; MGPUSim's ascending kernel2 order computes tile
    # diagonals 5 and 6 (3 tiles) before their neighbours are final
    outcome = nw.run(session("nw"), length=256, order="mgpusim")
    assert outcome.ok, outcome.detail
    assert outcome.launches == 8
    assert f"{3 * 64 * 64} cells differ from NW" in outcome.detail
    assert outcome.wave_instructions > 0


def test_nw_tile_replay_of_mgpusim_order_differs_exactly_off_the_mask():
    scores, reference = nw.inputs(256)
    replay = nw.tiled_reference(scores, reference, "mgpusim")
    truth = nw.nw_scores(scores, reference)
    mask = nw.exact_mask(256, "mgpusim")
    assert np.array_equal(replay[mask], truth[mask])
    assert np.count_nonzero(replay != truth) == 3 * 64 * 64
    assert np.array_equal(nw.tiled_reference(scores, reference, "rodinia"), truth)


def test_nbody_two_steps():
    outcome = nbody.run(session("nbody"), particles=256, iterations=2)
    assert outcome.ok, outcome.detail
    assert outcome.launches == 2


def test_nbody_reference_step_conserves_momentum():
    # pairwise forces cancel: sum of m_i * a_i is 0, so total momentum stays 0
    pos, vel = nbody.inputs(256)
    _, new_vel = nbody.reference(pos, vel, 1)
    momentum = (pos[:, 3:4].astype(np.float64) * new_vel[:, :3]).sum(axis=0)
    assert np.abs(momentum).max() < 1e-9 * np.abs(pos[:, 3:4] * new_vel[:, :3]).sum()


@pytest.mark.parametrize("name", sorted(SMALL))
def test_benchmark_matches_numpy(name):
    if name == "aes":
        pytest.importorskip("cryptography")
    module = importlib.import_module(f"bench.mgpusim.{name}")
    outcome = module.run(session(name), **SMALL[name])
    assert outcome.ok, outcome.detail
    assert outcome.launches >= 1 and outcome.wave_instructions > 0


def test_matrixmultiplication_model_is_the_product_on_the_first_band():
    rng = np.random.default_rng(0)
    a, b = rng.random((96, 32)), rng.random((32, 32))
    model = matrixmultiplication.product(a, b)
    assert np.allclose(model[:32], a[:32] @ b)
    assert np.allclose(model[32:64], a[:32] @ b) and not np.allclose(model[32:], a[32:] @ b)


class _Counts:
    """A stand-in session for the checks alone (no launches)."""

    def outcome(self, name, size, ok, detail=""):
        return ok, detail


def test_nw_check_rejects_one_wrong_cell():
    scores, reference = nw.inputs(128)
    good = nw.tiled_reference(scores, reference, "rodinia")
    assert nw.check(_Counts(), good, scores, reference, 128, "rodinia")[0]
    bad = good.copy()
    bad[70, 90] += 1
    assert not nw.check(_Counts(), bad, scores, reference, 128, "rodinia")[0]


def test_nbody_compare_rejects_a_drifted_body():
    pos, vel = nbody.inputs(256)
    want_pos, want_vel = nbody.reference(pos, vel, 2)
    assert nbody.compare(want_pos.astype(np.float32), want_vel.astype(np.float32),
                         want_pos, want_vel)[0]
    drifted = want_pos.astype(np.float32)
    drifted[17, 1] += 0.01
    assert not nbody.compare(drifted, want_vel.astype(np.float32), want_pos, want_vel)[0]


def test_aes_kernel_encrypts_the_fips197_aes256_example():
    # FIPS-197 appendix C.3: key 00..1f, plaintext 00112233..ff
    from bench.mgpusim import aes
    run = session("aes")
    box = aes.sbox()
    assert (box[0x00], box[0x53]) == (0x63, 0xED)
    key = aes.expand_key(aes.KEY, box)
    assert (key[0], key[59]) == (0x00010203, 0x6D68DE36)
    block = run.device.array(np.frombuffer(bytes.fromhex("00112233445566778899aabbccddeeff"),
                                           np.uint8).copy())
    run.launch("Encrypt", block, run.device.array(key), run.device.array(box),
               grid=(1,), block=(64,))
    assert block.numpy().tobytes().hex() == "8ea2b7ca516745bfeafc49904b496089"


class _RecordingSession(Session):
    """A Session that keeps, after every launch, the bytes of every device
    buffer the launch was given and the launch's counts."""

    def __init__(self, device, name):
        super().__init__(device, name)
        self.record = []

    def launch(self, kernel, *args, grid, block):
        result = super().launch(kernel, *args, grid=grid, block=block)
        self.record.append((kernel, result.wave_instructions, result.lane_instructions,
                            [a.numpy().tobytes() for a in args if hasattr(a, "numpy")]))
        return result


#: The sizes of the jobs comparison: SMALL's, with more than one work-group a launch.
SPREAD = dict(SMALL, atax={"nx": 512, "ny": 512}, nw={"length": 256, "order": "mgpusim"},
              nbody={"particles": 512, "iterations": 2})
#: Benchmarks whose work-groups race, benignly: the buffers must match, the
#: lane counts may not (which lanes find the work already done depends on
#: which work-groups ran first)
RACING = {"bfs": "a vertex found by several work-groups: each writes the same level, "
                 "those that look after the first write skip it"}


def _recorded_run(name, jobs):
    from amdgpu_tools import Device
    if code_object(name) is None:
        pytest.skip(f"bench/data/mgpusim/{name}.hsaco is absent")
    module = importlib.import_module(f"bench.mgpusim.{name}")
    run = _RecordingSession(Device(TARGET, jobs=jobs), name)
    outcome = module.run(run, **SPREAD[name])
    assert outcome.ok, outcome.detail
    return run.record


@pytest.mark.parametrize("name", sorted(SPREAD))
def test_benchmark_is_bit_identical_in_workers(forked_workers, name):
    """Every launch of the benchmark leaves every buffer it was given byte
    for byte as one process does, with the same instruction counts (lane
    counts aside for the RACING ones), when its work-groups run in 3 worker
    processes (batches of 2 waves, so even these small grids spread over
    the workers)."""
    if name == "aes":
        pytest.importorskip("cryptography")
    alone = _recorded_run(name, jobs=1)
    forks = forked_workers(2)
    spread = _recorded_run(name, jobs=3)
    assert forks and max(forks) > 1           # some launch did run in workers
    assert len(spread) == len(alone)
    counts = 2 if name in RACING else 3
    for launch, (one, many) in enumerate(zip(alone, spread)):
        assert one[:counts] == many[:counts], f"launch {launch} ({one[0]}): counts differ"
        assert one[3] == many[3], f"launch {launch} ({one[0]}): buffers differ"
