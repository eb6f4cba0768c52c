#!/usr/bin/python3
"""Benchmark peer: reading a JSON Lines recording with Python's json module, line by line (the
baseline a team's own replay script starts from). Prints the fastest of `rounds` passes in
seconds, then the records read.
Usage: python_jsonl_replay.py FILE ROUNDS
"""
import json
import sys
import time

path, rounds = sys.argv[1], int(sys.argv[2])
best, count = float("inf"), 0
for _ in range(rounds):
    start = time.perf_counter()
    count = 0
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            count += 1
    best = min(best, time.perf_counter() - start)
print(best)
print(count)
