#!/usr/bin/python3
"""Test oracle: the glTF 2.0 specification's metallic-roughness BRDF (Appendix B: Schlick's
Fresnel with f0 = mix(0.04, base, metallic), the GGX distribution and the height-correlated Smith
visibility with alpha = roughness^2, a Lambertian diffuse of mix(base, black, metallic) weighted
by 1 - F), written with numpy from the specification's text, on analytic spheres seen through a
pinhole camera: for each pixel centre, the ray's first sphere hit, its exact normal, and the
colour ambient * base + pi * f * (n.l) * light (ARScene's units of light: pi times the BRDF's,
so that a rough white dielectric reflects base * (n.l)). Prints JSON {"linear": [[r, g, b] per
pixel, row by row, or null for the background]}.
Usage: gltf_brdf.py SETUP.json  (the setup Tests/Fixtures/pbr/setup.json describes)
"""
import json
import math
import sys

import numpy as np

setup = json.load(open(sys.argv[1]))
size = setup["size"]
eye = np.array([0.0, 0.0, setup["eye_z"]])
f = (size / 2) / math.tan(math.radians(setup["vertical_fov_deg"]) / 2)
base = np.array(setup["base_color"])
ambient = np.array(setup["ambient"])
light = -np.array(setup["light_direction"], dtype=float)
light /= np.linalg.norm(light)
radiance = setup["light_intensity"]
centres = [np.array([(k % 3 - 1) * 2.2, (1 - k // 3) * 2.2, 0.0]) for k in range(9)]
radius = setup["radius"]


def brdf_times_nl(n, v, l, metallic, roughness):
    alpha = roughness * roughness
    nl = max(float(n @ l), 0.0)
    if nl <= 0:
        return np.zeros(3)
    nv = max(abs(float(n @ v)), 1e-4)
    h = (l + v) / np.linalg.norm(l + v)
    nh = max(float(n @ h), 0.0)
    vh = max(float(v @ h), 0.0)
    f0 = 0.04 * (1 - metallic) + base * metallic
    fresnel = f0 + (1 - f0) * (1 - vh) ** 5
    a2 = alpha * alpha
    d = a2 / (math.pi * (nh * nh * (a2 - 1) + 1) ** 2)
    vis = 0.5 / (nl * math.sqrt(nv * nv * (1 - a2) + a2) + nv * math.sqrt(nl * nl * (1 - a2) + a2))
    diffuse = (1 - fresnel) * (base * (1 - metallic)) / math.pi
    return math.pi * (diffuse + fresnel * d * vis) * nl


out = []
for row in range(size):
    for col in range(size):
        # The pixel centre's ray: x right, y up, looking down -z.
        x = (col + 0.5 - size / 2) / f
        y = (size / 2 - (row + 0.5)) / f
        ray = np.array([x, y, -1.0])
        ray /= np.linalg.norm(ray)
        best = None
        for k, c in enumerate(centres):
            oc = eye - c
            b = float(oc @ ray)
            disc = b * b - (float(oc @ oc) - radius * radius)
            if disc < 0:
                continue
            t = -b - math.sqrt(disc)
            if t > 0 and (best is None or t < best[0]):
                best = (t, k)
        if best is None:
            out.append(None)
            continue
        t, k = best
        point = eye + t * ray
        n = (point - centres[k]) / radius
        metallic, roughness = setup["spheres"][k]
        colour = ambient * base + brdf_times_nl(n, -ray, light, metallic, roughness) * radiance
        out.append([float(v) for v in colour])
print(json.dumps({"linear": out}))
