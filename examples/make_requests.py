#!/usr/bin/env python3
"""Writes examples/requests.jsonl: a few hundred varied sandbox requests, as a request log exported
from a CKS runner might hold them, for `sandgate check --requests` and `sandgate policy diff`.

    python3 examples/make_requests.py            # rewrites examples/requests.jsonl
    python3 examples/make_requests.py -n 1000000 --seed 7 -o /tmp/requests.jsonl   # benchmark input

Deterministic (a fixed seed). Most records are {"id", "sandbox"} (some with "defaults"); some are
the bare sandbox; the committed file ends with two lines a log truncated or mangled, which
sandgate reports record by record instead of stopping. Standard library only.
"""

import argparse
import json
import os
import random

IMAGES = ["python:3.11", "python:3.12-slim", "ghcr.io/acme/trainer:2.4", "ghcr.io/acme/notebook:1.9",
          "docker.io/library/golang:1.22"]
OUTSIDE_IMAGES = ["quay.io/someone/tool:latest", "ghcr.io/acme-evil/miner:1"]
CPUS = ["250m", "500m", "1", "2", "2", "4", "4", "6", "8"]
MEMORY = ["512Mi", "1Gi", "2Gi", "4Gi", "8Gi", "16Gi"]
TEAMS = ["ml-infra", "research", "evals", "data", "platform-tools"]
TAGS = ["training", "eval", "notebook", "batch", "ci", "nightly"]


def quantity_ge(value, choices):
    """A choice not below `value` (limits are never below requests)."""
    order = {"250m": 0.25, "500m": 0.5, "512Mi": 0.5, "1": 1, "1Gi": 1, "2": 2, "2Gi": 2, "4": 4, "4Gi": 4, "6": 6,
             "8": 8, "8Gi": 8, "16Gi": 16}
    return [c for c in choices if order[c] >= order[value]]


def sandbox(rng):
    sb = {"container_image": rng.choice(IMAGES), "placement_mode": "cks", "runner_ids": ["prod-us-east-1"]}
    shape = rng.random()
    if shape < 0.55:  # requests and limits (Burstable or Guaranteed)
        cpu, mem = rng.choice(CPUS), rng.choice(MEMORY)
        sb["resources"] = {"requests": {"cpu": cpu, "memory": mem},
                           "limits": {"cpu": rng.choice(quantity_ge(cpu, CPUS)), "memory": rng.choice(quantity_ge(mem, MEMORY))}}
    elif shape < 0.8:  # the flat form (Guaranteed)
        sb["resources"] = {"cpu": rng.choice(CPUS), "memory": rng.choice(MEMORY)}
    # else: no resources, the policy's defaults apply
    if rng.random() < 0.45:
        sb["max_lifetime_seconds"] = rng.choice([600, 1200, 1800, 7200])
    annotations = {}
    if rng.random() < 0.6:
        annotations["team"] = rng.choice(TEAMS)
    if rng.random() < 0.12:  # a cost center the team sets itself
        annotations["billing.example.com/cost-center"] = "cc-%d" % rng.randint(100, 999)
    if annotations:
        sb["annotations"] = annotations
    if rng.random() < 0.5:
        sb["tags"] = rng.sample(TAGS, rng.randint(1, 2))
    if rng.random() < 0.2:
        sb["network"] = {"egress": [{"https_hostname": rng.choice(["pypi.org", "files.pythonhosted.org"])}]}
    if rng.random() < 0.04:
        sb["container_image"] = rng.choice(OUTSIDE_IMAGES)
    if rng.random() < 0.03:
        sb["annotations"] = dict(sb.get("annotations", {}), **{"example.com/owner": "me"})
    return sb


def record(rng, i):
    sb = sandbox(rng)
    kind = rng.random()
    if kind < 0.25:
        return sb
    rec = {"id": "%s-%04d" % (rng.choice(["nb", "train", "eval", "ci"]), i), "sandbox": sb}
    if kind > 0.9:
        rec["defaults"] = {"environment_variables": {"LOG_LEVEL": "info"}, "tags": ["from-defaults"]}
    return rec


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("-n", type=int, default=300, help="records (default 300)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("-o", "--output", default=os.path.join(here, "requests.jsonl"))
    parser.add_argument("--no-broken", action="store_true", help="leave out the two broken lines")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.output, "w", encoding="utf-8") as f:
        for i in range(1, args.n + 1):
            f.write(json.dumps(record(rng, i), separators=(",", ":")) + "\n")
        if not args.no_broken and args.n == 300:
            # What a cut-off export and a stray value look like: each is one unreadable record.
            f.write('{"id":"nb-0301","sandbox":{"container_image":"python:3.11","resources":{"cpu":"2"\n')
            f.write('"nb-0302"\n')


if __name__ == "__main__":
    main()
