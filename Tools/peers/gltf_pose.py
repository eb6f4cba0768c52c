#!/usr/bin/python3
"""Test oracle: a glTF 2.0 asset's vertex positions at time T of its first animation, written
from the specification's formulas with numpy alone (no glTF library): node TRS (LINEAR with
slerp, STEP, CUBICSPLINE), global transforms down the default scene, linear blend skinning
(a skinned mesh placed by its joints only), morph targets. Prints JSON: {"positions": [[x, y, z],
...], "min": [...], "max": [...]}, every mesh instance's vertices in scene order.
Usage: gltf_pose.py FILE.gltf|FILE.glb T
"""
import base64
import json
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quaternions import quat_matrix, slerp  # noqa: E402

COMPONENT = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I", 5126: "f"}
NORMALIZE = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def load(path):
    data = open(path, "rb").read()
    binary = None
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        doc = json.loads(data[20:20 + length])
        offset = 20 + length
        if offset + 8 <= len(data):
            size = struct.unpack_from("<I", data, offset)[0]
            binary = data[offset + 8:offset + 8 + size]
    else:
        doc = json.loads(data)
    buffers = []
    for b in doc.get("buffers", []):
        uri = b.get("uri")
        if uri is None:
            buffers.append(binary)
        elif uri.startswith("data:"):
            buffers.append(base64.b64decode(uri.split(",", 1)[1]))
        else:
            buffers.append(open(os.path.join(os.path.dirname(path), uri), "rb").read())
    return doc, buffers


def accessor(doc, buffers, index):
    a = doc["accessors"][index]
    n, fmt = WIDTH[a["type"]], COMPONENT[a["componentType"]]
    size = struct.calcsize(fmt)
    out = np.zeros((a["count"], n))
    if "bufferView" in a:
        v = doc["bufferViews"][a["bufferView"]]
        buf = buffers[v["buffer"]]
        stride = v.get("byteStride", size * n)
        base = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        for e in range(a["count"]):
            out[e] = struct.unpack_from("<" + fmt * n, buf, base + e * stride)
    if a.get("normalized"):
        out = np.maximum(out / NORMALIZE[a["componentType"]], -1.0)
    return out


def sample(doc, buffers, sampler, path, time):
    times = accessor(doc, buffers, sampler["input"])[:, 0]
    values = accessor(doc, buffers, sampler["output"])
    mode = sampler.get("interpolation", "LINEAR")
    per = values.size // len(times) // (3 if mode == "CUBICSPLINE" else 1)
    flat = values.reshape(-1)

    def key(k, part):
        start = (3 * k + part) * per if mode == "CUBICSPLINE" else k * per
        return flat[start:start + per]

    if time <= times[0]:
        return key(0, 1)
    if time >= times[-1]:
        return key(len(times) - 1, 1)
    k = int(np.searchsorted(times, time, side="right")) - 1
    t0, t1 = times[k], times[k + 1]
    u = (time - t0) / (t1 - t0)
    if mode == "STEP":
        return key(k, 1)
    if mode == "CUBICSPLINE":
        dt = t1 - t0
        return ((2 * u**3 - 3 * u**2 + 1) * key(k, 1) + (u**3 - 2 * u**2 + u) * dt * key(k, 2)
                + (-2 * u**3 + 3 * u**2) * key(k + 1, 1) + (u**3 - u**2) * dt * key(k + 1, 0))
    if path == "rotation":
        return slerp(key(k, 1), key(k + 1, 1), u)
    return key(k, 1) + u * (key(k + 1, 1) - key(k, 1))


def main():
    path, time = sys.argv[1], float(sys.argv[2])
    doc, buffers = load(path)
    nodes = doc.get("nodes", [])
    trs = [{"translation": n.get("translation", [0, 0, 0]), "rotation": n.get("rotation", [0, 0, 0, 1]),
            "scale": n.get("scale", [1, 1, 1]), "weights": n.get("weights")} for n in nodes]
    for anim in doc.get("animations", [])[:1]:
        for ch in anim["channels"]:
            target = ch["target"]
            if "node" in target:
                value = sample(doc, buffers, anim["samplers"][ch["sampler"]], target["path"], time)
                if target["path"] == "rotation":
                    value = value / np.linalg.norm(value)
                trs[target["node"]][target["path"]] = list(value)

    def local(i):
        if "matrix" in nodes[i]:
            return np.array(nodes[i]["matrix"], dtype=float).reshape(4, 4).T
        m = np.eye(4)
        m[:3, :3] = quat_matrix(trs[i]["rotation"]) @ np.diag(trs[i]["scale"])
        m[:3, 3] = trs[i]["translation"]
        return m

    globals_, order = {}, []

    def visit(i, parent):
        g = parent @ local(i)
        globals_.setdefault(i, g)
        order.append((i, g))
        for c in nodes[i].get("children", []):
            visit(c, g)

    scene = doc["scenes"][doc.get("scene", 0)]
    for root in scene["nodes"]:
        visit(root, np.eye(4))
    out = []
    for i, g in order:
        if "mesh" not in nodes[i]:
            continue
        mesh = doc["meshes"][nodes[i]["mesh"]]
        weights = trs[i]["weights"] or mesh.get("weights")
        skin = doc["skins"][nodes[i]["skin"]] if "skin" in nodes[i] else None
        joints_m = None
        if skin is not None:
            ibm = accessor(doc, buffers, skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
            joints_m = [globals_[j] @ ibm[k] for k, j in enumerate(skin["joints"])]
        for prim in mesh["primitives"]:
            p = accessor(doc, buffers, prim["attributes"]["POSITION"])
            for t, target in enumerate(prim.get("targets", [])):
                if weights and t < len(weights) and "POSITION" in target:
                    p = p + weights[t] * accessor(doc, buffers, target["POSITION"])
            if joints_m is not None:
                js = accessor(doc, buffers, prim["attributes"]["JOINTS_0"]).astype(int)
                ws = accessor(doc, buffers, prim["attributes"]["WEIGHTS_0"])
                for v in range(len(p)):
                    m = sum(ws[v][k] * joints_m[js[v][k]] for k in range(4)) / ws[v].sum()
                    out.append(list((m @ np.append(p[v], 1.0))[:3]))
            else:
                for v in p:
                    out.append(list((g @ np.append(v, 1.0))[:3]))
    a = np.array(out)
    print(json.dumps({"positions": out, "min": list(a.min(axis=0)), "max": list(a.max(axis=0))}))


main()
