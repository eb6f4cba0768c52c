#!/usr/bin/python3
"""Test oracle: a glTF/GLB drawn by pyrender (PyPI, OpenGL through Mesa's OSMesa), an independent
metallic-roughness renderer, under the camera and lights of a setup file (the keys
Tests/Fixtures/pbr/setup.json has): a pinhole at (0, 0, eye_z) looking down -z, or at "eye"
looking at "target" (y up), with the vertical field of view given, one directional light and an ambient term, in ARScene's units of light
(pyrender's light is pi times ours: its Lambertian divides by pi, ours does not).
pyrender writes its colour with gamma 2.2; it is undone here, so the values are linear light.
Prints JSON {"linear": [[r, g, b] per pixel, row by row, or null where nothing was drawn]}.
Usage: pyrender_render.py SETUP.json MODEL.glb
"""
import json
import math
import os
import sys

os.environ.setdefault("PYOPENGL_PLATFORM", "osmesa")
import numpy as np  # noqa: E402
import pyrender  # noqa: E402
import trimesh  # noqa: E402

setup = json.load(open(sys.argv[1]))
size = setup["size"]
loaded = trimesh.load(sys.argv[2], force="scene", process=False)
scene = pyrender.Scene(bg_color=[0.0, 0.0, 0.0, 0.0], ambient_light=[float(a) for a in setup["ambient"]])
for node in loaded.graph.nodes_geometry:
    transform, name = loaded.graph[node]
    mesh = loaded.geometry[name]
    if "vertex_normals" not in mesh._cache:
        # Smooth normals as trimesh makes them (the sum of the faces' unit normals about each
        # vertex), without the scipy it would use for that.
        sums = np.zeros_like(mesh.vertices)
        for corner in range(3):
            np.add.at(sums, mesh.faces[:, corner], mesh.face_normals)
        mesh.vertex_normals = sums / np.linalg.norm(sums, axis=1, keepdims=True)
    scene.add(pyrender.Mesh.from_trimesh(mesh), pose=transform)
# The camera at "eye" looking at "target" (y up), or at (0, 0, eye_z) looking down -z.
eye = np.array(setup.get("eye", [0.0, 0.0, setup.get("eye_z", 0.0)]), dtype=float)
back = eye - np.array(setup.get("target", [0.0, 0.0, 0.0]), dtype=float)
back /= np.linalg.norm(back)
right = np.cross([0.0, 1.0, 0.0], back)
right /= np.linalg.norm(right)
camera = np.eye(4)
camera[:3, 0], camera[:3, 1], camera[:3, 2], camera[:3, 3] = right, np.cross(back, right), back, eye
scene.add(pyrender.PerspectiveCamera(yfov=math.radians(setup["vertical_fov_deg"]), aspectRatio=1.0), pose=camera)
# A directional light shines down its node's -z axis.
towards = -np.array(setup["light_direction"], dtype=float)
towards /= np.linalg.norm(towards)
side = np.cross([0.0, 1.0, 0.0], towards)
side /= np.linalg.norm(side)
light = np.eye(4)
light[:3, 0], light[:3, 1], light[:3, 2] = side, np.cross(towards, side), towards
scene.add(pyrender.DirectionalLight(color=[1.0, 1.0, 1.0], intensity=math.pi * setup["light_intensity"]), pose=light)
renderer = pyrender.OffscreenRenderer(size, size)
colour, depth = renderer.render(scene)
renderer.delete()
linear = (colour[:, :, :3].astype(np.float64) / 255.0) ** 2.2
out = [None if depth[y, x] <= 0 else [float(v) for v in linear[y, x]] for y in range(size) for x in range(size)]
print(json.dumps({"linear": out}))
