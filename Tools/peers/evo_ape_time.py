#!/usr/bin/python3
"""Benchmark peer: evo's APE with SE(3) alignment, as evo_ape computes it (read both TUM files,
associate by time, align with Umeyama, take the translation errors' statistics). Prints the
fastest of `rounds` runs in seconds, then the RMSE (as a check). Run by Tools/bench through
arscene-bench with evo (PyPI) on PYTHONPATH.
Usage: evo_ape_time.py REF EST ROUNDS
"""
import copy
import sys
import time

from evo.core import metrics, sync
from evo.tools import file_interface

ref_path, est_path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
best, rmse = float("inf"), 0.0
for _ in range(rounds):
    start = time.perf_counter()
    ref = file_interface.read_tum_trajectory_file(ref_path)
    est = file_interface.read_tum_trajectory_file(est_path)
    ref, est = sync.associate_trajectories(ref, est, max_diff=0.01)
    est = copy.deepcopy(est)
    est.align(ref, correct_scale=False)
    ape = metrics.APE(metrics.PoseRelation.translation_part)
    ape.process_data((ref, est))
    rmse = ape.get_statistic(metrics.StatisticsType.rmse)
    best = min(best, time.perf_counter() - start)
print(best)
print(rmse)
