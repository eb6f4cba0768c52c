#!/usr/bin/env python3
"""Anchor drift of a TUM estimate against its TUM ground truth, computed independently of
ARScene with numpy and OpenCV: the oracle of `arscene traj drift`.

  anchor_drift.py REF EST EVERY FX FY CX CY K1 K2 P1 P2 K3

Poses are paired as evo pairs them (each pose of the shorter trajectory with the other's nearest
within 0.01 s, the earlier on a tie); an anchor is placed every EVERY seconds from the first pair,
1 m ahead of the camera (OpenCV's frame, +z), through both trajectories; at each later pair the
drift is |E_k^-1 E_0 p - G_k^-1 G_0 p| in metres and the distance between the two points'
pixels by cv2.projectPoints. Prints JSON: per anchor the placement time and every pair's
[t, metres, pixels]."""
import json
import sys

import cv2
import numpy as np


def read_tum(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            rows.append([float(x) for x in line.split()])
    data = np.array(rows)
    return data[:, 0], data[:, 1:4], data[:, 4:8]


def matrices(translations, quaternions):
    q = quaternions / np.linalg.norm(quaternions, axis=1, keepdims=True)
    x, y, z, w = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    r = np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=1),
    ], axis=1)
    return r, translations


def associate(short, long, max_diff=0.01):
    pairs = []
    for i, t in enumerate(short):
        j = int(np.searchsorted(long, t, side="right"))
        upper = min(j, len(long) - 1)
        above = long[upper] - t
        below = t - long[upper - 1] if upper > 0 else np.inf
        if above <= max_diff and above < below:
            pairs.append((i, upper))
        elif below <= max_diff and below <= above:
            pairs.append((i, upper - 1))
    return pairs


def main():
    ref_path, est_path, every = sys.argv[1], sys.argv[2], float(sys.argv[3])
    fx, fy, cx, cy = (float(v) for v in sys.argv[4:8])
    dist = np.array([float(v) for v in sys.argv[8:13]])
    k = np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]])
    rt, rp, rq = read_tum(ref_path)
    et, ep, eq = read_tum(est_path)
    if len(et) <= len(rt):
        pairs = associate(et, rt)
        ei, ri = [p[0] for p in pairs], [p[1] for p in pairs]
    else:
        pairs = associate(rt, et)
        ri, ei = [p[0] for p in pairs], [p[1] for p in pairs]
    er, etr = matrices(ep[ei], eq[ei])
    rr, rtr = matrices(rp[ri], rq[ri])
    times = et[ei]
    offset = np.array([0.0, 0.0, 1.0])
    anchors = []
    for placed in np.arange(times[0], times[-1] + 1e-9, every):
        start = int(np.argmax(times >= placed))
        app = er[start] @ offset + etr[start]
        truth = rr[start] @ offset + rtr[start]
        series = []
        for n in range(start, len(times)):
            drawn = er[n].T @ (app - etr[n])
            belongs = rr[n].T @ (truth - rtr[n])
            metres = float(np.linalg.norm(drawn - belongs))
            pixels = None
            if drawn[2] > 0 and belongs[2] > 0:
                pts, _ = cv2.projectPoints(np.array([drawn, belongs]), np.zeros(3), np.zeros(3), k, dist)
                pixels = float(np.linalg.norm(pts[0, 0] - pts[1, 0]))
            series.append([float(times[n]), metres, pixels])
        anchors.append({"placed_at": float(times[start]), "series": series})
    print(json.dumps({"pairs": len(times), "anchors": anchors}))


if __name__ == "__main__":
    main()
