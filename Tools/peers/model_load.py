#!/usr/bin/python3
"""Benchmark peer and inputs for model loading (issue 71's speed goal).

  model_load.py write-glb OUT       a GLB of about 1M triangles in 102 meshes sharing six parts'
                                    vertex accessors (each mesh its own indices), every mesh on
                                    its own node, as exporters write kits of repeated parts
  model_load.py write-gltf OUT      the same as a .gltf with its buffer in a .bin beside it
  model_load.py write-usdz OUT      a USDZ of about 1M triangles in 100 meshes of quads under
                                    transformed Xforms, written by usd-core
  model_load.py trimesh FILE ROUNDS trimesh's in-process load and flatten (trimesh.load with
                                    force="mesh": every instance placed and concatenated)
  model_load.py usd FILE ROUNDS     usd-core opening the stage and reading every mesh's points,
                                    face counts and indices and its transform

The timing modes print the fastest round in seconds, then the triangles (faces) read.
"""
import struct
import sys
import time

import numpy as np


def grid(n):
    """An n x n grid of unit quads as (vertices, normals, texcoords, triangles)."""
    ys, xs = np.mgrid[0 : n + 1, 0 : n + 1]
    vertices = np.stack([xs.ravel() / n, ys.ravel() / n, 0.05 * np.sin(xs.ravel() * 0.3)], 1).astype(np.float32)
    normals = np.tile(np.array([0, 0, 1], np.float32), (len(vertices), 1))
    texcoords = np.stack([xs.ravel() / n, ys.ravel() / n], 1).astype(np.float32)
    a = (ys[:-1, :-1] * (n + 1) + xs[:-1, :-1]).ravel()
    quads = np.stack([a, a + 1, a + n + 2, a + n + 1], 1)
    triangles = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]], 1).reshape(-1, 3)
    return vertices, normals, texcoords, triangles.astype(np.uint32)


def write_glb(out, separate=False):
    # Six parts of 9,800 triangles, each with its own vertex accessors, drawn by 102 meshes
    # (each part by 17, each mesh its own index accessor over the part's vertices) on 102 nodes.
    parts = [grid(70) for _ in range(6)]
    meshes = 102
    chunks, views, accessors = [], [], []

    def add(array, target, kind, component, extra=None):
        data = array.tobytes()
        offset = sum(len(c) for c in chunks)
        chunks.append(data + b"\0" * (-len(data) % 4))
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(data), "target": target})
        accessor = {"bufferView": len(views) - 1, "componentType": component, "count": len(array), "type": kind}
        accessor.update(extra or {})
        accessors.append(accessor)
        return len(accessors) - 1

    shared = []
    for k, (vertices, normals, texcoords, _) in enumerate(parts):
        vertices = vertices + np.float32(k)
        shared.append({"POSITION": add(vertices, 34962, "VEC3", 5126,
                                       {"min": vertices.min(0).tolist(), "max": vertices.max(0).tolist()}),
                       "NORMAL": add(normals, 34962, "VEC3", 5126),
                       "TEXCOORD_0": add(texcoords, 34962, "VEC2", 5126)})
    mesh_list, nodes = [], []
    for k in range(meshes):
        triangles = parts[k % 6][3]
        indices = add(np.roll(triangles, k, axis=0).ravel(), 34963, "SCALAR", 5125)
        mesh_list.append({"primitives": [{"attributes": shared[k % 6], "indices": indices}]})
        nodes.append({"mesh": k, "translation": [0.01 * (k % 10), 0.01 * (k // 10), 0.001 * k]})
    import json
    document = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": list(range(meshes))}],
                "nodes": nodes, "meshes": mesh_list, "accessors": accessors, "bufferViews": views,
                "buffers": [{"byteLength": sum(len(c) for c in chunks)}]}
    binary = b"".join(chunks)
    if separate:
        import os
        document["buffers"][0]["uri"] = os.path.basename(out).replace(".gltf", ".bin")
        open(out.replace(".gltf", ".bin"), "wb").write(binary)
        open(out, "w").write(json.dumps(document))
        return
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    with open(out, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(binary), 0x004E4942) + binary)


def write_usdz(out):
    from pxr import Gf, Sdf, Usd, UsdGeom, UsdUtils

    layer = out.replace(".usdz", ".usdc")
    stage = Usd.Stage.CreateNew(layer)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    vertices, _, _, _ = grid(70)
    n = 70
    ys, xs = np.mgrid[0:n, 0:n]
    a = (ys * (n + 1) + xs).ravel()
    quads = np.stack([a, a + 1, a + n + 2, a + n + 1], 1).ravel().tolist()
    for k in range(100):
        # Each part's own points (a file of one part repeated would be deduplicated to one).
        points = [Gf.Vec3f(float(p[0]), float(p[1]), float(p[2]) + 0.001 * k) for p in vertices]
        xform = UsdGeom.Xform.Define(stage, f"/Kit/Part{k}")
        xform.AddTranslateOp().Set(Gf.Vec3d(0.01 * (k % 10), 0.01 * (k // 10), 0))
        xform.AddRotateZOp().Set(3.6 * k)
        mesh = UsdGeom.Mesh.Define(stage, f"/Kit/Part{k}/Surface")
        mesh.CreatePointsAttr(points)
        mesh.CreateFaceVertexCountsAttr([4] * (n * n))
        mesh.CreateFaceVertexIndicesAttr(quads)
        mesh.CreateExtentAttr(UsdGeom.PointBased.ComputeExtent(points))
    stage.GetRootLayer().Save()
    UsdUtils.CreateNewUsdzPackage(Sdf.AssetPath(layer), out)


def time_trimesh(path, rounds):
    import trimesh

    best, faces = float("inf"), 0
    for _ in range(rounds):
        start = time.perf_counter()
        mesh = trimesh.load(path, force="mesh")
        best = min(best, time.perf_counter() - start)
        faces = len(mesh.faces)
    print(best)
    print(faces)


def time_usd(path, rounds):
    from pxr import Usd, UsdGeom

    best, faces = float("inf"), 0
    for _ in range(rounds):
        start = time.perf_counter()
        stage = Usd.Stage.Open(path)
        cache = UsdGeom.XformCache()
        faces = 0
        for prim in stage.Traverse():
            if prim.IsA(UsdGeom.Mesh):
                mesh = UsdGeom.Mesh(prim)
                points = np.asarray(mesh.GetPointsAttr().Get())
                counts = np.asarray(mesh.GetFaceVertexCountsAttr().Get())
                np.asarray(mesh.GetFaceVertexIndicesAttr().Get())
                cache.GetLocalToWorldTransform(prim)
                faces += int((counts - 2).sum()) if len(points) else 0
        best = min(best, time.perf_counter() - start)
        del stage
    print(best)
    print(faces)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "write-glb":
        write_glb(sys.argv[2])
    elif mode == "write-gltf":
        write_glb(sys.argv[2], separate=True)
    elif mode == "write-usdz":
        write_usdz(sys.argv[2])
    elif mode == "trimesh":
        time_trimesh(sys.argv[2], int(sys.argv[3]))
    elif mode == "usd":
        time_usd(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown mode {mode}")
