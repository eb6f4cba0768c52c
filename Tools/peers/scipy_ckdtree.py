#!/usr/bin/python3
"""Benchmark peer: SciPy's cKDTree on Earth-centred (ECEF) coordinates, the usual way to find
points of interest near a position without a geodesic library, and what a user who wants
"places within 1 km, nearest first, with their distances" runs: the tree's candidates, then
pyproj's exact geodesic distance and bearing for each (PROJ's geod_inverse, Karney's
algorithm, vectorised), then a sort. Reads the places and queries the benchmark wrote (float64
x, y, z triples, and float64 latitude, longitude pairs), and prints the fastest of `rounds` runs
in seconds of: building the tree; `count` radius queries (chord radius only); the same with
geodesic distances and sorting; those capped at 20 each; `count` 10-nearest queries (chord
only); the same with geodesic distances; then the total of places the radius queries found.
Usage: scipy_ckdtree.py PLACES QUERIES PLACES_LATLON QUERIES_LATLON RADIUS_M ROUNDS
"""
import sys
import time

import numpy as np
from pyproj import Geod
from scipy.spatial import cKDTree

places = np.fromfile(sys.argv[1], dtype=np.float64).reshape(-1, 3)
queries = np.fromfile(sys.argv[2], dtype=np.float64).reshape(-1, 3)
place_ll = np.fromfile(sys.argv[3], dtype=np.float64).reshape(-1, 2)
query_ll = np.fromfile(sys.argv[4], dtype=np.float64).reshape(-1, 2)
radius, rounds = float(sys.argv[5]), int(sys.argv[6])
geod = Geod(ellps="WGS84")
best = [float("inf")] * 6
found = 0


def geodesic(k, indices):
    """Distances and bearings from query k to places `indices`, nearest first."""
    indices = np.asarray(indices, dtype=np.int64)
    n = len(indices)
    lat0, lon0 = np.full(n, query_ll[k, 0]), np.full(n, query_ll[k, 1])
    bearing, _, distance = geod.inv(lon0, lat0, place_ll[indices, 1], place_ll[indices, 0])
    order = np.argsort(distance, kind="stable")
    return indices[order], distance[order], bearing[order]


for _ in range(rounds):
    start = time.perf_counter()
    tree = cKDTree(places)
    best[0] = min(best[0], time.perf_counter() - start)
    start = time.perf_counter()
    found = sum(len(tree.query_ball_point(q, radius)) for q in queries)
    best[1] = min(best[1], time.perf_counter() - start)
    start = time.perf_counter()
    for k, q in enumerate(queries):
        i, d, b = geodesic(k, tree.query_ball_point(q, radius))
        keep = d <= radius
    best[2] = min(best[2], time.perf_counter() - start)
    start = time.perf_counter()
    for k, q in enumerate(queries):
        i, d, b = geodesic(k, tree.query_ball_point(q, radius))
        i, d, b = i[:20], d[:20], b[:20]
    best[3] = min(best[3], time.perf_counter() - start)
    start = time.perf_counter()
    for q in queries:
        tree.query(q, k=10)
    best[4] = min(best[4], time.perf_counter() - start)
    start = time.perf_counter()
    for k, q in enumerate(queries):
        _, near = tree.query(q, k=10)
        i, d, b = geodesic(k, near)
    best[5] = min(best[5], time.perf_counter() - start)
for t in best:
    print(t)
print(found)
