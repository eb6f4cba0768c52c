#!/usr/bin/python3
"""Test and benchmark peer: square-marker detection by OpenCV's cv2.aruco.detectMarkers (with
sub-pixel corner refinement) or by the AprilTag library's own detector (Debian libapriltag3,
through ctypes), on image files.

Usage: marker_detectors.py opencv|apriltag|charuco:COLSxROWS:SQUARE:MARKER DICTIONARY ROUNDS [--with-decode] IMAGE...
  DICTIONARY as ARScene names them: aruco_NxN_COUNT, aruco_original, apriltag_36h11,
  apriltag_36h10, apriltag_25h9, apriltag_16h5 (the AprilTag detector takes only 36h11, 25h9, 16h5).
Prints one JSON line per image: {"image", "seconds" (the fastest of ROUNDS detections, the file
already decoded to grey; with --with-decode, each round reading and decoding the file too), "markers": [{"id", "hamming", "corners": [[x, y] x 4]}]}, corners in
ARScene's convention (pixel centres at +0.5) and in the dictionary's order: the top-left,
top-right, bottom-right and bottom-left corners of the marker as its reference implementation
draws it. Needs /usr/bin/python3 with Debian's python3-opencv (numpy comes with it).
"""
import ctypes
import json
import sys
import time

import cv2
import numpy as np

ARUCO = {f"aruco_{n}x{n}_{c}": getattr(cv2.aruco, f"DICT_{n}X{n}_{c}") for n in (4, 5, 6, 7) for c in (50, 100, 250, 1000)}
ARUCO.update({
    "aruco_original": cv2.aruco.DICT_ARUCO_ORIGINAL,
    "apriltag_36h11": cv2.aruco.DICT_APRILTAG_36h11,
    "apriltag_36h10": cv2.aruco.DICT_APRILTAG_36h10,
    "apriltag_25h9": cv2.aruco.DICT_APRILTAG_25h9,
    "apriltag_16h5": cv2.aruco.DICT_APRILTAG_16h5,
})


def opencv_detector(name):
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO[name])
    parameters = cv2.aruco.DetectorParameters_create()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # OpenCV draws the AprilTag families turned half round from the AprilTag library's own
    # images (ARScene's reference), so its corner 0 is their corner 2.
    shift = 2 if name.startswith("apriltag") else 0

    def detect(grey):
        corners, ids, _ = cv2.aruco.detectMarkers(grey, dictionary, parameters=parameters)
        if ids is None:
            return []
        found = []
        for i, c in zip(ids.flatten(), corners):
            c = c.reshape(4, 2).astype(float) + 0.5
            ordered = [c[(k + shift) % 4] for k in range(4)]
            found.append({"id": int(i), "hamming": -1, "corners": [[float(v) for v in p] for p in ordered]})
        return found

    return detect


class ImageU8(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int32), ("height", ctypes.c_int32), ("stride", ctypes.c_int32),
                ("buf", ctypes.POINTER(ctypes.c_uint8))]


class ZArray(ctypes.Structure):
    _fields_ = [("el_sz", ctypes.c_size_t), ("size", ctypes.c_int), ("alloc", ctypes.c_int),
                ("data", ctypes.c_void_p)]


class Detection(ctypes.Structure):
    _fields_ = [("family", ctypes.c_void_p), ("id", ctypes.c_int), ("hamming", ctypes.c_int),
                ("decision_margin", ctypes.c_float), ("H", ctypes.c_void_p), ("c", ctypes.c_double * 2),
                ("p", (ctypes.c_double * 2) * 4)]


class DetectorHead(ctypes.Structure):
    """The leading fields of apriltag_detector_t (apriltag.h, 3.x) that set it up."""
    _fields_ = [("nthreads", ctypes.c_int), ("quad_decimate", ctypes.c_float), ("quad_sigma", ctypes.c_float),
                ("refine_edges", ctypes.c_bool), ("decode_sharpening", ctypes.c_double)]


def apriltag_detector(name, threads=2):
    family = {"apriltag_36h11": "tag36h11", "apriltag_25h9": "tag25h9", "apriltag_16h5": "tag16h5"}[name]
    lib = ctypes.CDLL("libapriltag.so.3")
    lib.apriltag_detector_create.restype = ctypes.c_void_p
    getattr(lib, family + "_create").restype = ctypes.c_void_p
    lib.apriltag_detector_detect.restype = ctypes.POINTER(ZArray)
    lib.apriltag_detector_detect.argtypes = [ctypes.c_void_p, ctypes.POINTER(ImageU8)]
    lib.apriltag_detector_add_family_bits.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    lib.apriltag_detections_destroy.argtypes = [ctypes.POINTER(ZArray)]
    detector = lib.apriltag_detector_create()
    # The library's defaults (decimation 2, no blur, edges refined), on two threads; all the
    # bits each family can correct, as ARScene's detector does.
    ctypes.cast(detector, ctypes.POINTER(DetectorHead)).contents.nthreads = threads
    bits = {"tag36h11": 2, "tag25h9": 2, "tag16h5": 2}[family]
    lib.apriltag_detector_add_family_bits(detector, getattr(lib, family + "_create")(), bits)

    def detect(grey):
        grey = np.ascontiguousarray(grey, dtype=np.uint8)
        image = ImageU8(grey.shape[1], grey.shape[0], grey.strides[0],
                        grey.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)))
        detections = lib.apriltag_detector_detect(detector, ctypes.byref(image))
        found = []
        array = detections.contents
        for k in range(array.size):
            pointer = ctypes.cast(array.data + k * array.el_sz, ctypes.POINTER(ctypes.c_void_p)).contents
            d = ctypes.cast(pointer.value, ctypes.POINTER(Detection)).contents
            # The library's corners run bottom-left, bottom-right, top-right, top-left of the tag
            # as apriltag_to_image draws it, already with pixel centres at +0.5 (measured on warped tags).
            p = [(d.p[k][0], d.p[k][1]) for k in range(4)]
            ordered = [p[3], p[2], p[1], p[0]]
            found.append({"id": d.id, "hamming": d.hamming, "corners": [list(c) for c in ordered]})
        lib.apriltag_detections_destroy(detections)
        return found

    return detect


def charuco_detector(name, specification):
    """detectMarkers as opencv_detector runs it, then interpolateCornersCharuco on the board
    COLSxROWS:SQUARE:MARKER; the line adds how many chessboard corners it found,
    "charuco_corners" (marker corners here in OpenCV's own convention, not reordered)."""
    size, square, marker = specification.split(":")
    columns, rows = (int(v) for v in size.lower().split("x"))
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO[name])
    board = cv2.aruco.CharucoBoard_create(columns, rows, float(square), float(marker), dictionary)
    parameters = cv2.aruco.DetectorParameters_create()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX

    def detect(grey):
        corners, ids, _ = cv2.aruco.detectMarkers(grey, dictionary, parameters=parameters)
        if ids is None:
            return []
        detect.charuco_corners, _, _ = cv2.aruco.interpolateCornersCharuco(corners, ids, grey, board)
        return [{"id": int(i), "hamming": -1, "corners": c.reshape(4, 2).tolist()} for i, c in zip(ids.flatten(), corners)]

    detect.charuco_corners = 0
    return detect


def main():
    which, name, rounds, images = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    # --with-decode: each round reads and decodes the file too, as a detector fed files does.
    with_decode = bool(images) and images[0] == "--with-decode"
    if with_decode:
        images = images[1:]
    if which.startswith("charuco:"):
        detect = charuco_detector(name, which[len("charuco:"):])
    else:
        detect = opencv_detector(name) if which == "opencv" else apriltag_detector(name)
    for path in images:
        grey = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        if grey is None:
            sys.exit(f"{path}: cannot read the image")
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            if with_decode:
                grey = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
            found = detect(grey)
            best = min(best, time.perf_counter() - start)
        line = {"image": path, "seconds": best, "markers": found}
        if hasattr(detect, "charuco_corners"):
            line["charuco_corners"] = int(detect.charuco_corners)
        print(json.dumps(line))


if __name__ == "__main__":
    main()
