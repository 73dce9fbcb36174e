"""The README examples the Python benchmarks check, each with the policy it is checked against
(the same list as bench/examples.h, which the C++ benchmarks read)."""

README_EXAMPLES = [
    ("sandboxes/prod-ok.yaml", "policies/production-cks.yaml"),
    ("sandboxes/sunk-ok.yaml", "policies/sunk-slurm.yaml"),
    ("sandboxes/sunk-partition-override.yaml", "policies/sunk-slurm.yaml"),
    ("sandboxes/gpu-wrong-case.yaml", "policies/gpu-cks.yaml"),
    ("sandboxes/memory-volume-80.yaml", "policies/production-cks.yaml"),
    ("sandboxes/cpu-above-max.yaml", "policies/production-cks.yaml"),
]
