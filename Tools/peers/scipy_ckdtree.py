#!/usr/bin/python3
"""Benchmark peer: SciPy's cKDTree on Earth-centred (ECEF) coordinates, the usual way to find
points of interest near a position without a geodesic library. Reads the places and queries the
benchmark wrote (float64 x, y, z triples), and prints the fastest of `rounds` runs in seconds of:
building the tree, `count` radius queries (chord radius, no geodesic check), `count` 10-nearest
queries; then the total of places found by the radius queries (a check).
Usage: scipy_ckdtree.py PLACES QUERIES RADIUS_M ROUNDS
"""
import sys
import time

import numpy as np
from scipy.spatial import cKDTree

places = np.fromfile(sys.argv[1], dtype=np.float64).reshape(-1, 3)
queries = np.fromfile(sys.argv[2], dtype=np.float64).reshape(-1, 3)
radius, rounds = float(sys.argv[3]), int(sys.argv[4])
best = [float("inf")] * 3
found = 0
for _ in range(rounds):
    start = time.perf_counter()
    tree = cKDTree(places)
    best[0] = min(best[0], time.perf_counter() - start)
    start = time.perf_counter()
    found = sum(len(tree.query_ball_point(q, radius)) for q in queries)
    best[1] = min(best[1], time.perf_counter() - start)
    start = time.perf_counter()
    for q in queries:
        tree.query(q, k=10)
    best[2] = min(best[2], time.perf_counter() - start)
for t in best:
    print(t)
print(found)
