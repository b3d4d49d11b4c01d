"""AMD APP SDK N-body (MGPUSim ``nbody -particles P -iter I``): kernel nbody_sim.

P is rounded down to a multiple of the 256-item work-group (at least 256);
each of the I launches (grid P, block 256, dt 0.005, softening eps^2 500, a
256-float4 LDS tile) reads one position/velocity pair and writes the other,
which then swap roles. Positions x, y, z lie in [3, 50), masses (w) in
[1, 1000), velocities start at 0. The reference is the same explicit step in
float64 NumPy: every body sees every body's old position (the kernel's
order; MGPUSim's own CPU check updates in place, which differs).
"""

from __future__ import annotations

import numpy as np

from amdgpu_tools import LocalMemory

GROUP = 256
DELTA_T = np.float32(0.005)
EPS_SQR = np.float32(500.0)


def bodies(particles: int) -> int:
    """MGPUSim's rounding of the particle count."""
    return max(GROUP, particles) // GROUP * GROUP


def inputs(n: int, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    pos = np.empty((n, 4), np.float32)
    pos[:, :3] = rng.uniform(3.0, 50.0, (n, 3))
    pos[:, 3] = rng.uniform(1.0, 1000.0, n)
    return pos, np.zeros((n, 4), np.float32)


def step(pos: np.ndarray, vel: np.ndarray, dt: float, eps_sqr: float):
    """One kernel step in float64: (new positions, new velocities), float4 each.
    The kernel accumulates s * r over all four components, so velocity w
    collects s * (m_j - m_i); position w (the mass) is kept."""
    r = pos[None, :, :] - pos[:, None, :]                      # r[i, j] = p_j - p_i
    dist_sqr = (r[:, :, :3] ** 2).sum(axis=2)
    s = pos[None, :, 3] / (dist_sqr + eps_sqr) ** 1.5
    acc = np.einsum("ij,ijk->ik", s, r)
    new_pos = pos + vel * dt + acc * 0.5 * dt * dt
    new_pos[:, 3] = pos[:, 3]
    return new_pos, vel + acc * dt


def reference(pos, vel, iterations: int):
    pos, vel = pos.astype(np.float64), vel.astype(np.float64)
    for _ in range(iterations):
        pos, vel = step(pos, vel, float(DELTA_T), float(EPS_SQR))
    return pos, vel


def run(session, particles: int = 1024, iterations: int = 8):
    n = bodies(particles)
    pos, vel = inputs(n)
    device = session.device
    current = [device.array(pos), device.array(vel)]
    new = [device.zeros((n, 4), np.float32), device.zeros((n, 4), np.float32)]
    for _ in range(iterations):
        session.launch("nbody_sim", current[0], current[1], np.int32(n), DELTA_T, EPS_SQR,
                       LocalMemory(GROUP * 16), new[0], new[1], grid=(n,), block=(GROUP,))
        current, new = new, current
    got_pos, got_vel = current[0].numpy(), current[1].numpy()
    for buffer in current + new:
        buffer.free()
    want_pos, want_vel = reference(pos, vel, iterations)
    ok, detail = compare(got_pos, got_vel, want_pos, want_vel)
    return session.outcome("nbody", f"-particles {particles} -iter {iterations}", ok, detail)


def compare(got_pos, got_vel, want_pos, want_vel):
    """float32 accumulation against float64: positions to 1e-5 of their scale,
    velocities to 1e-4 of theirs (each launch sums P terms in float32)."""
    pos_err = np.abs(got_pos - want_pos).max() / np.abs(want_pos).max()
    vel_err = np.abs(got_vel[:, :3] - want_vel[:, :3]).max() / np.abs(want_vel[:, :3]).max()
    w_err = np.abs(got_vel[:, 3] - want_vel[:, 3]).max() / np.abs(want_vel[:, 3]).max()
    ok = pos_err < 1e-5 and vel_err < 1e-4 and w_err < 1e-3
    return bool(ok), f"max rel. error pos {pos_err:.1e}, vel {vel_err:.1e}"
