#!/usr/bin/python3
"""Benchmark peer and inputs for model loading (issue 71's speed goal).

  model_load.py write-glb OUT       a GLB of about 1M triangles in 102 meshes sharing six parts'
                                    vertex accessors (each mesh its own indices), every mesh on
                                    its own node, as exporters write kits of repeated parts
  model_load.py write-gltf OUT      the same as a .gltf with its buffer in a .bin beside it
  model_load.py write-draco-glb OUT a GLB of 960,000 triangles in 48 meshes, each one primitive
                                    compressed with KHR_draco_mesh_compression (positions,
                                    normals, texture coordinates; DracoPy, Google's encoder)
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


def write_binary_gltf(out, document, binary):
    """A GLB of `document` (JSON) and its one buffer's `binary` bytes."""
    import json

    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    with open(out, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(binary), 0x004E4942) + binary)


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
    write_binary_gltf(out, document, binary)


def write_draco_glb(out):
    # 48 meshes of a 100 x 100 quad grid (20,000 triangles each), every one its own Draco buffer
    # (each part moved, so no two buffers are alike), on a node of its own, as a photogrammetry
    # or city model is split into tiles.
    import DracoPy

    vertices, normals, texcoords, triangles = grid(100)
    chunks, views, accessors, meshes, nodes = [], [], [], [], []
    for k in range(48):
        moved = vertices + np.float32(0.5 * k)
        data = DracoPy.encode(moved, triangles, quantization_bits=14, compression_level=7,
                              normals=normals.astype(np.float64), tex_coord=texcoords.astype(np.float64))
        offset = sum(len(c) for c in chunks)
        chunks.append(data + b"\0" * (-len(data) % 4))
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(data)})
        decoded = DracoPy.decode(data)
        first = len(accessors)
        low, high = np.asarray(decoded.points).min(0), np.asarray(decoded.points).max(0)
        accessors += [
            {"componentType": 5126, "count": len(vertices), "type": "VEC3", "min": low.tolist(), "max": high.tolist()},
            {"componentType": 5126, "count": len(vertices), "type": "VEC3"},
            {"componentType": 5126, "count": len(vertices), "type": "VEC2"},
            {"componentType": 5123, "count": triangles.size, "type": "SCALAR"},
        ]
        # Indices as unsigned shorts, as exporters write a mesh of fewer than 65,536 points
        # (assimp 5.2 refuses Draco indices declared as unsigned ints: "accessor without data").
        # The attributes' unique ids as DracoPy 2.2's encoder numbers them (its decoder lists
        # them): texture coordinates 0, normals 1, positions 2.
        meshes.append({"primitives": [{
            "attributes": {"POSITION": first, "NORMAL": first + 1, "TEXCOORD_0": first + 2},
            "indices": first + 3,
            "extensions": {"KHR_draco_mesh_compression": {
                "bufferView": len(views) - 1, "attributes": {"POSITION": 2, "NORMAL": 1, "TEXCOORD_0": 0}}}}]})
        nodes.append({"mesh": k, "translation": [0.0, 0.0, 0.01 * k]})
    document = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": list(range(len(nodes)))}],
                "nodes": nodes, "meshes": meshes, "accessors": accessors, "bufferViews": views,
                "buffers": [{"byteLength": sum(len(c) for c in chunks)}],
                "extensionsUsed": ["KHR_draco_mesh_compression"],
                "extensionsRequired": ["KHR_draco_mesh_compression"]}
    binary = b"".join(chunks)
    write_binary_gltf(out, document, binary)


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
    elif mode == "write-draco-glb":
        write_draco_glb(sys.argv[2])
    elif mode == "write-usdz":
        write_usdz(sys.argv[2])
    elif mode == "trimesh":
        time_trimesh(sys.argv[2], int(sys.argv[3]))
    elif mode == "usd":
        time_usd(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown mode {mode}")
