#!/usr/bin/env python3
"""Where a TUM RGB-D frame shows a 3-D point, by OpenCV: the oracle of `render --recording` on
real frames.

  tum_point_projection.py FOLDER FRAMES

For the first FRAMES colour frames of the sequence in FOLDER: the ground truth's camera pose at
the frame's time (the poses either side interpolated, translation linearly and rotation by
slerp), a point 1 m ahead of frame 0's camera, and its pixel by cv2.projectPoints through the
Kinect's published fr1 intrinsics and distortion (pixel centres at integers, OpenCV's). Prints
JSON {"point": [x, y, z], "pixels": [[u, v], ...]}."""
import json
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quaternions import quat_matrix, slerp  # noqa: E402

K = np.array([[517.306408, 0, 318.643040], [0, 516.469215, 255.313989], [0, 0, 1]])
DIST = np.array([0.262383, -0.953104, -0.005358, 0.002628, 1.163314])


def rows(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def pose_at(truth, t):
    times = truth[:, 0]
    i = int(np.searchsorted(times, t, side="right"))
    before, after = truth[i - 1], truth[i]
    s = (t - before[0]) / (after[0] - before[0])
    a, b = before[4:8] / np.linalg.norm(before[4:8]), after[4:8] / np.linalg.norm(after[4:8])
    q = slerp(a, b, s)
    p = before[1:4] + s * (after[1:4] - before[1:4])
    return quat_matrix(q), p


def main():
    folder, count = sys.argv[1], int(sys.argv[2])
    truth = np.array([[float(v) for v in r] for r in rows(folder + "/groundtruth.txt")])
    frames = [float(r[0]) for r in rows(folder + "/rgb.txt")][:count]
    r0, p0 = pose_at(truth, frames[0])
    point = r0 @ np.array([0.0, 0.0, 1.0]) + p0
    pixels = []
    for t in frames:
        r, p = pose_at(truth, t)
        camera = r.T @ (point - p)
        uv, _ = cv2.projectPoints(camera.reshape(1, 3), np.zeros(3), np.zeros(3), K, DIST)
        pixels.append([float(uv[0, 0, 0]), float(uv[0, 0, 1])])
    print(json.dumps({"point": point.tolist(), "pixels": pixels}))


if __name__ == "__main__":
    main()
