#!/usr/bin/env python3
"""Benchmark peer: Open3D's PointCloud.segment_plane (RANSAC, then its inliers) on an .xyz
file. Prints the fastest of `rounds` runs in seconds and the plane a, b, c, d found. Run by
Tools/bench through arscene-bench with Open3D from PyPI (open3d-cpu) on PYTHONPATH.
Usage: open3d_plane.py FILE THRESHOLD ITERATIONS ROUNDS
"""
import sys
import time

import numpy as np
import open3d as o3d

points = np.loadtxt(sys.argv[1])
threshold, iterations, rounds = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cloud = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(points))
o3d.utility.random.seed(1)
best, plane = float("inf"), None
for _ in range(rounds):
    start = time.perf_counter()
    plane, inliers = cloud.segment_plane(distance_threshold=threshold, ransac_n=3, num_iterations=iterations)
    best = min(best, time.perf_counter() - start)
print(best, *plane)
