"""sandgate from Python, side by side with what a Python user would otherwise run, in one process.

    .venv/bin/python bench/python/bench_check.py            # after scripts/test-python.sh (or
                                                             # .venv/bin/pip install .)

1. ``sandgate.check(dict)`` on each README example (bench/examples.h: the sandbox and the policy it
   is checked against, with runners.yaml and org.yaml), next to ``cwsandbox``'s own
   ``normalize_resources`` on the same
   ``resources`` dict. They do not do the same work: the SDK normalises one field; sandgate merges
   the layers, resolves placement, runners, defaults, annotations, lifetime, network, QoS, … and
   answers every rule of SPEC §5–§6. The ratio says what the whole check costs in units of the one
   step the SDK does anyway.
2. Policy validation of every examples/policies/*.yaml: ``sandgate.validate_policy(dict)`` (schema
   *and* the P-rules of SPEC §4) next to ``jsonschema`` and ``fastjsonschema`` (schema only),
   all three on the same dict and the same schema/policy.schema.json, compiled once.

Times are the best of 5 runs, per call, with the GIL held by the caller (one thread).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
from importlib.metadata import version
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastjsonschema
import jsonschema
import yaml
from cwsandbox import __version__ as cwsandbox_version
from cwsandbox._resources import normalize_resources as sdk_normalize_resources

import sandgate
from readme_examples import README_EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def per_call(fn: Callable[[], object]) -> float:
    """Seconds per call: best of 5 runs of an auto-sized loop (about 0.2 s each)."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=number)) / number


def load_yaml(rel: str) -> Any:
    return yaml.safe_load((EXAMPLES / rel).read_text())


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:10.2f} µs"


def table(title: str, rows: list[tuple[str, float]], baseline: str) -> list[tuple[str, float, float]]:
    base = dict(rows)[baseline]
    print(f"\n{title}")
    print(f"  {'what':<72} {'per call':>13} {'× ' + baseline.split()[0]:>16}")
    out = []
    for name, t in rows:
        ratio = t / base
        out.append((name, t, ratio))
        print(f"  {name:<72} {fmt_us(t):>13} {ratio:>15.2f}×")
    return out


def bench_check() -> list[tuple[str, float, float]]:
    runners = sandgate.Runners.load(EXAMPLES / "runners.yaml")
    org = sandgate.Org.load(EXAMPLES / "org.yaml")
    runners_dict, org_dict = load_yaml("runners.yaml"), load_yaml("org.yaml")
    results = []
    for sandbox_file, policy_file in README_EXAMPLES:
        sandbox: dict[str, Any] = load_yaml(sandbox_file)
        policy = sandgate.Policy.load(EXAMPLES / policy_file)
        resources = sandbox["resources"]
        expected = sandgate.check(sandbox, policy=policy, runners=runners, org=org)
        assert expected.ok == sandbox_file.endswith("-ok.yaml"), expected.diagnostics
        assert sdk_normalize_resources(resources) is not None
        name = Path(sandbox_file).stem
        rows = [
            (f"sandgate.check(dict) [{name}], policy/runners/org loaded once",
             per_call(lambda: sandgate.check(sandbox, policy=policy, runners=runners, org=org))),
            (f"sandgate.check(dict) [{name}], runners/org as dicts per call",
             per_call(lambda: sandgate.check(sandbox, policy=policy, runners=runners_dict, org=org_dict))),
            (f"sandgate.normalize_resources(resources) [{name}]",
             per_call(lambda: sandgate.normalize_resources(resources))),
            (f"cwsandbox normalize_resources(resources) [{name}]",
             per_call(lambda: sdk_normalize_resources(resources))),
        ]
        results += table(f"check — {sandbox_file} against {policy_file}", rows, rows[-1][0])
    return results


def bench_validate() -> list[tuple[str, float, float]]:
    schema = json.loads((ROOT / "schema" / "policy.schema.json").read_text())
    validator_cls = jsonschema.validators.validator_for(schema)
    validator = validator_cls(schema)
    fast = fastjsonschema.compile(schema)
    results = []
    for path in sorted((EXAMPLES / "policies").glob("*.yaml")):
        policy = yaml.safe_load(path.read_text())
        ours = sandgate.validate_policy(policy)
        schema_ok = validator.is_valid(policy)
        rows = [
            ("sandgate.validate_policy(dict)  [schema + P-1…P-15]", per_call(lambda: sandgate.validate_policy(policy))),
            (f"jsonschema {validator_cls.__name__}.is_valid  [schema]", per_call(lambda: validator.is_valid(policy))),
            ("fastjsonschema compiled validate  [schema]", per_call(lambda: fast(policy))),
        ]
        title = f"validate — policies/{path.name} (sandgate ok={ours.ok}, jsonschema valid={schema_ok})"
        results += table(title, rows, rows[0][0])
    return results


def main() -> int:
    # No options; --help says what it does instead of doing it.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    print(f"sandgate {sandgate.__version__}, cwsandbox {cwsandbox_version}, jsonschema {version('jsonschema')}, "
          f"fastjsonschema {fastjsonschema.VERSION}; Python {platform.python_version()} on {platform.machine()}")
    checks = bench_check()
    validations = bench_validate()
    print("\nsummary")
    readme = [r for r in checks if "gpu-wrong-case" in r[0]]
    print(f"  README example: sandgate.check (inputs loaded once) costs {readme[0][2]:.1f}× cwsandbox's "
          f"normalize_resources of the same resources dict (which checks one field of the request).")
    sg = [r for r in validations if r[0].startswith("sandgate")]
    js = [r for r in validations if r[0].startswith("jsonschema")]
    fj = [r for r in validations if r[0].startswith("fastjsonschema")]

    def mean(xs: list[tuple[str, float, float]]) -> float:
        return sum(x[1] for x in xs) / len(xs)

    def geo_mean_ratio(others: list[tuple[str, float, float]]) -> float:
        # the other validator's time / sandgate's, policy by policy, then the geometric mean
        return math.exp(sum(math.log(o[1] / g[1]) for o, g in zip(others, sg)) / len(sg))

    print(f"  policy validation (mean over {len(sg)} policies): sandgate {fmt_us(mean(sg)).strip()}, "
          f"jsonschema {mean(js) / mean(sg):.2f}× sandgate, fastjsonschema {mean(fj) / mean(sg):.2f}× sandgate "
          "(both schema only; sandgate adds the P-rules).")
    print(f"  policy validation, geometric mean of (other's time / sandgate's) per policy: jsonschema "
          f"{geo_mean_ratio(js):.2f}, fastjsonschema {geo_mean_ratio(fj):.2f} (issue 12: at least 50 and 2)")
    loaded_once = [r for r in checks if "loaded once" in r[0]]
    slowest = max(loaded_once, key=lambda r: r[1])
    print(f"  sandgate.check(dict), inputs loaded once: {len(loaded_once)} README examples, slowest "
          f"{fmt_us(slowest[1]).strip()} ({slowest[0].split('[')[1].split(']')[0]}; issue 12: at most 10 µs each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
