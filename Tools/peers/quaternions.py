"""Unit quaternions [x, y, z, w] in numpy, for the peer scripts: the rotation matrix and slerp,
by their textbook formulas (no ARScene code)."""
import numpy as np


def quat_matrix(q):
    """The rotation matrix of the unit quaternion q = [x, y, z, w]."""
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def slerp(a, b, t):
    """The unit quaternion a fraction t of the way from a to b, by the shorter arc."""
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    d = float(np.dot(a, b))
    if d < 0:
        b, d = -b, -d
    if d > 0.9995:
        q = a + t * (b - a)
        return q / np.linalg.norm(q)
    theta = np.arccos(d)
    return (np.sin((1 - t) * theta) * a + np.sin(t * theta) * b) / np.sin(theta)
