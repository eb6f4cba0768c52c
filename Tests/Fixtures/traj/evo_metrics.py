"""evo's APE and RPE, the oracle `arscene traj ape|rpe` is tested against. Reads a JSON list of
cases on stdin, each {"metric": "ape"|"rpe", "format", optionally "estimate_format" (when the
estimate's layout differs from the reference's), "reference", "estimate", "align",
"relation", "t_max_diff", "n_to_align", "align_origin", and for RPE "delta", "delta_unit"
("frames"|"metres"), "all_pairs"}, and prints a JSON list of evo's statistics for them."""
import copy
import json
import sys

from evo.core import metrics, sync
from evo.core.units import Unit
from evo.tools import file_interface

READ = {
    "tum": file_interface.read_tum_trajectory_file,
    "euroc": file_interface.read_euroc_csv_trajectory,
    "kitti": file_interface.read_kitti_poses_file,
}
RELATION = {
    "trans": metrics.PoseRelation.translation_part,
    "angle_deg": metrics.PoseRelation.rotation_angle_deg,
    "full": metrics.PoseRelation.full_transformation,
}
UNIT = {"frames": Unit.frames, "metres": Unit.meters}


def run(case):
    ref = READ[case["format"]](case["reference"])
    est = READ[case.get("estimate_format", case["format"])](case["estimate"])
    if case["format"] != "kitti":
        ref, est = sync.associate_trajectories(ref, est, max_diff=case.get("t_max_diff", 0.01))
    est = copy.deepcopy(est)
    n = case.get("n_to_align", -1)
    if case["align"] == "se3":
        est.align(ref, correct_scale=False, n=n)
    elif case["align"] == "sim3":
        est.align(ref, correct_scale=True, n=n)
    elif case["align"] == "scale":
        est.align(ref, correct_only_scale=True, n=n)
    elif case.get("align_origin"):
        est.align_origin(ref)
    relation = RELATION[case["relation"]]
    if case.get("metric", "ape") == "rpe":
        metric = metrics.RPE(
            relation,
            delta=case["delta"],
            delta_unit=UNIT[case["delta_unit"]],
            all_pairs=case.get("all_pairs", False),
        )
    else:
        metric = metrics.APE(relation)
    metric.process_data((ref, est))
    stats = {k: float(v) for k, v in metric.get_all_statistics().items()}
    stats["pairs"] = len(metric.error)
    return stats


print(json.dumps([run(case) for case in json.load(sys.stdin)]))
