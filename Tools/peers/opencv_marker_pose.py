#!/usr/bin/python3
"""Benchmark peer: OpenCV's solvePnP(SOLVEPNP_IPPE_SQUARE) on the square-marker views in a file
(lines: fx fy cx cy size x0 y0 x1 y1 x2 y2 x3 y3). Prints the fastest of `rounds` passes over
all views, in seconds, and the mean translation of the first view (as a check). Run by
Tools/bench through arscene-bench; needs Debian python3-opencv (/usr/bin/python3).
Usage: opencv_marker_pose.py FILE ROUNDS
"""
import sys
import time

import cv2
import numpy as np

rows = [list(map(float, line.split())) for line in open(sys.argv[1]) if line.strip()]
rounds = int(sys.argv[2])
views = []
for v in rows:
    s = v[4] / 2
    obj = np.array([[-s, s, 0], [s, s, 0], [s, -s, 0], [-s, -s, 0]], dtype=np.float64)
    k = np.array([[v[0], 0, v[2]], [0, v[1], v[3]], [0, 0, 1.0]])
    corners = np.array(v[5:13], dtype=np.float64).reshape(4, 1, 2)
    views.append((obj, corners, k))
best = float("inf")
for _ in range(rounds):
    start = time.perf_counter()
    for obj, corners, k in views:
        cv2.solvePnP(obj, corners, k, None, flags=cv2.SOLVEPNP_IPPE_SQUARE)
    best = min(best, time.perf_counter() - start)
print(best)
