#!/usr/bin/python3
"""Test oracle: which pixels Mesa's llvmpipe covers (through pyrender on OSMesa) drawing a model
as trimesh reads it, seen by a pinhole camera with its principal point at the image's centre.
Prints the coverage, one line of 0s and 1s per image row, top row first.
Usage: pyrender_coverage.py MODEL WIDTH HEIGHT FX FY M00,M10,...,M33
  (world from camera, column-major, camera looking down -z with y up)
"""
import os
import sys

os.environ.setdefault("PYOPENGL_PLATFORM", "osmesa")
import numpy as np  # noqa: E402
import pyrender  # noqa: E402
import trimesh  # noqa: E402

path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fx, fy = float(sys.argv[4]), float(sys.argv[5])
pose = np.array([float(v) for v in sys.argv[6].split(",")]).reshape(4, 4).T
loaded = trimesh.load(path, force="scene", process=False)
scene = pyrender.Scene(bg_color=[0.0, 0.0, 0.0, 0.0])
for node in loaded.graph.nodes_geometry:
    transform, name = loaded.graph[node]
    mesh = loaded.geometry[name]
    if not hasattr(mesh, "faces"):
        continue
    # Coverage only: no normals (so no scipy), both sides drawn.
    primitive = pyrender.Primitive(positions=mesh.vertices, indices=mesh.faces, mode=pyrender.GLTF.TRIANGLES,
                                   material=pyrender.MetallicRoughnessMaterial(doubleSided=True))
    scene.add(pyrender.Mesh([primitive]), pose=transform)
camera = pyrender.IntrinsicsCamera(fx=fx, fy=fy, cx=width / 2, cy=height / 2, znear=0.01, zfar=1000.0)
scene.add(camera, pose=pose)
renderer = pyrender.OffscreenRenderer(width, height)
# A colour pass, not DEPTH_ONLY: pyrender's depth-only pass culls back faces whatever the flags.
_, depth = renderer.render(scene, flags=pyrender.RenderFlags.FLAT | pyrender.RenderFlags.SKIP_CULL_FACES)
renderer.delete()
print("\n".join("".join("1" if d > 0 else "0" for d in row) for row in depth))
