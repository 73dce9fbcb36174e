#!/usr/bin/env python3
"""Generates the seed corpora of the fuzz targets (stdlib only; nothing here is copied by hand).

Sources:
  - tests/conformance/**/*.yaml: the texts embedded in each case (policy, sandbox, defaults,
    overrides, runners, org) and its options (client, placement);
  - examples/**/*.{yaml,yml,json} when present: policies, sandboxes, runners, org files;
  - quantity strings found in all of the above (values of cpu, memory, max_cpu, size, …) plus
    the string literals of tests/cpp/quantity_test.cpp that look like quantities;
  - tests/hostile: the committed hostile inputs and the small outputs of its generator (≤ 16 KiB);
  - fuzz/regressions/<target>/*: every regression input is also a seed.

Output: one directory per target under OUT (default build/fuzz-corpus), each file named by the
SHA-1 of its content, as libFuzzer names corpus files. The directories are emptied first, so the
corpus always matches the sources.

Usage: fuzz/make_corpus.py [--out DIR] [--root REPO]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
from pathlib import Path

TARGETS = ("fuzz_policy_yaml", "fuzz_policy_json", "fuzz_sandbox", "fuzz_quantity", "fuzz_check")
TEXT_KEYS = ("policy", "sandbox", "defaults", "overrides", "runners", "org")
CHECK_SEPARATOR = "\n%%\n"  # fuzz_check.cpp splits its input on this line
QUANTITY_KEYS = {
    "cpu", "memory", "max_cpu", "max_memory", "min_cpu", "min_memory", "default_cpu",
    "default_memory", "cpu_ceiling", "memory_ceiling", "max_size", "size",
    "maxCpu", "maxMemory", "minCpu", "minMemory", "defaultCpu", "defaultMemory",
    "cpuCeiling", "memoryCeiling", "maxSize",
}
POLICY_TOP_KEYS = {"display_name", "displayName", "base", "constraints", "control_plane_access",
                   "controlPlaneAccess", "policy", "etag"}

# ---------------------------------------------------------------------------------------------
# A reader for the small YAML subset the case files use for their text fields: block scalars
# (| |- |+ with an optional indentation digit, and > folded), double- and single-quoted scalars
# on one line, and plain scalars. Everything else in a case is skipped.

_DQ_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
               "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
               "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}


def _unquote_double(body: str) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1] if i + 1 < len(body) else ""
        width = {"x": 2, "u": 4, "U": 8}.get(e)
        if width:
            out.append(chr(int(body[i + 2:i + 2 + width], 16)))
            i += 2 + width
        else:
            out.append(_DQ_ESCAPES.get(e, e))
            i += 2
    return "".join(out)


def _strip_comment(value: str) -> str:
    m = re.search(r"\s#", value)
    return value[: m.start()].rstrip() if m else value.rstrip()


def _scalar(value: str, lines: list[str], start: int, key_indent: int) -> tuple[str, int]:
    """The scalar that starts with `value` (the text after `key:`); returns it and the next line."""
    v = value.strip()
    m = re.match(r"^([|>])([-+]?)([1-9]?)([-+]?)\s*(#.*)?$", v)
    if m:
        folded = m.group(1) == ">"
        chomp = m.group(2) or m.group(4)
        explicit = int(m.group(3)) if m.group(3) else None
        block, i = [], start
        while i < len(lines):
            line = lines[i]
            if line.strip() and len(line) - len(line.lstrip(" ")) <= key_indent:
                break
            block.append(line)
            i += 1
        if explicit is not None:
            indent = key_indent + explicit
        else:
            indent = next((len(l) - len(l.lstrip(" ")) for l in block if l.strip()), key_indent + 2)
        body = [l[indent:] if len(l) >= indent else "" for l in block]
        # Trailing blank lines belong to the chomping, not to the content.
        while body and not body[-1].strip() and chomp != "+":
            body.pop()
        if folded:
            text, prev_blank = "", True
            for l in body:
                if not l:
                    text += "\n"
                    prev_blank = True
                elif l.startswith(" "):
                    text += ("" if prev_blank else "\n") + l + "\n"
                    prev_blank = True
                else:
                    text += ("" if prev_blank or not text else " ") + l
                    prev_blank = False
            text = text.rstrip("\n") + "\n" if text else ""
        else:
            text = "\n".join(body) + ("\n" if body else "")
        if chomp == "-":
            text = text.rstrip("\n")
        elif chomp == "+":
            text = "\n".join(body) + "\n"
        return text, i
    if v.startswith('"'):
        end = len(v) - 1
        while end > 0 and (v[end] != '"' or v[end - 1] == "\\"):
            end -= 1
        return _unquote_double(v[1:end]), start
    if v.startswith("'"):
        return v[1:v.rindex("'")].replace("''", "'"), start
    return _strip_comment(v), start


def read_cases(path: Path) -> list[dict]:
    """Each case of a conformance file as {name, policy?, sandbox?, …, options: {…}}."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases: list[dict] = []
    case_indent = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)- name:\s*(.*)$", line)
        if m:
            case_indent = len(m.group(1)) + 2
            cases.append({"name": _scalar(m.group(2), lines, i + 1, case_indent)[0], "options": {}})
            i += 1
            continue
        if cases and case_indent is not None:
            m = re.match(r"^( *)([A-Za-z_]+):(.*)$", line)
            if m and len(m.group(1)) == case_indent:
                key, rest = m.group(2), m.group(3)
                if key in TEXT_KEYS:
                    text, i = _scalar(rest, lines, i + 1, case_indent)
                    cases[-1][key] = text
                    continue
                if key == "options":
                    opts = cases[-1]["options"]
                    flow = rest.strip()
                    j = i + 1
                    if not flow:  # block form: the indented lines below
                        block = []
                        while j < len(lines) and (not lines[j].strip() or
                                                  len(lines[j]) - len(lines[j].lstrip(" ")) > case_indent):
                            block.append(lines[j])
                            j += 1
                        flow = ",".join(block)
                    for k, val in re.findall(r"(client|placement)\s*:\s*['\"]?([A-Za-z_]+)", flow):
                        opts[k] = val
                    i = j
                    continue
        i += 1
    return cases


# ---------------------------------------------------------------------------------------------

def quantities_in(text: str) -> set[str]:
    """Values of quantity-named keys, as written (quotes removed), in YAML or JSON text."""
    out = set()
    for key, val in re.findall(r"[\"']?\b([A-Za-z_]+)[\"']?\s*:\s*(\"[^\"\n]*\"|'[^'\n]*'|[^,}\]\n#]+)", text):
        if key in QUANTITY_KEYS:
            val = val.strip()
            if val[:1] in "\"'":
                val = val[1:-1]
            if val and not val.startswith(("{", "[")):
                out.add(val)
    return out


def classify_example(path: Path, text: str) -> str | None:
    """Which input an example file is: policy, sandbox, runners, org (None when unsure)."""
    name = str(path).lower()
    for kind in ("runners", "org", "polic", "sandbox", "default", "override", "request"):
        if kind in path.name.lower() or f"/{kind}" in name:
            return {"polic": "policy", "default": "defaults", "override": "overrides",
                    "request": "sandbox"}.get(kind, kind)
    keys = set(re.findall(r"^[\"']?([A-Za-z_]+)[\"']?\s*:", text, re.M))
    if path.suffix == ".json":
        try:
            doc = json.loads(text)
            keys = set(doc) if isinstance(doc, dict) else set()
        except ValueError:
            pass
    if "runners" in keys:
        return "runners"
    if keys & {"gpu_allowed", "max_gpus_per_sandbox", "serverless_allowed"}:
        return "org"
    if keys & POLICY_TOP_KEYS:
        return "policy"
    if keys:
        return "sandbox"
    return None


def check_flags(case: dict) -> int:
    opts = case.get("options", {})
    flags = 1 if opts.get("client") == "typescript" else 0
    flags |= {"serverless": 1, "cks": 2}.get(opts.get("placement", ""), 0) << 1
    if "runners" in case:
        flags |= 8
    if "org" in case:
        flags |= 16
    return flags


def check_seed(flags: int, policy: str, sandbox: str, defaults: str | None = None,
               overrides: str | None = None) -> bytes:
    parts = [policy, sandbox]
    if defaults is not None or overrides is not None:
        parts.append(defaults or "")
    if overrides is not None:
        parts.append(overrides)
    return bytes([flags]) + CHECK_SEPARATOR.join(parts).encode("utf-8")


class Corpus:
    def __init__(self, out: Path):
        self.out = out
        self.counts = {t: 0 for t in TARGETS}
        for t in TARGETS:
            d = out / t
            if d.exists():
                shutil.rmtree(d)
            d.mkdir(parents=True)

    def add(self, target: str, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        path = self.out / target / hashlib.sha1(data).hexdigest()
        if not path.exists():
            path.write_bytes(data)
            self.counts[target] += 1


def main() -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=here.parent)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    root = args.root.resolve()
    out = (args.out or root / "build" / "fuzz-corpus").resolve()
    corpus = Corpus(out)

    policies: list[str] = []
    sandboxes: list[str] = []
    quantities: set[str] = set()
    conformance = sorted((root / "tests" / "conformance").rglob("*.yaml"))
    n_cases = 0
    for path in conformance:
        for case in read_cases(path):
            n_cases += 1
            for key in TEXT_KEYS:
                if key in case:
                    quantities |= quantities_in(case[key])
            if "policy" in case:
                policies.append(case["policy"])
            for key in ("sandbox", "defaults", "overrides"):
                if key in case:
                    sandboxes.append(case[key])
            if "sandbox" in case:
                corpus.add("fuzz_check", check_seed(check_flags(case), case.get("policy", "{}"), case["sandbox"],
                                                    case.get("defaults"), case.get("overrides")))

    n_examples = 0
    example_policies: list[str] = []
    example_sandboxes: list[str] = []
    examples = root / "examples"
    if examples.is_dir():
        for path in sorted(p for p in examples.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and p.is_file()):
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            kind = classify_example(path, text)
            n_examples += 1
            quantities |= quantities_in(text)
            if kind == "policy":
                policies.append(text)
                example_policies.append(text)
            elif kind in ("sandbox", "defaults", "overrides"):
                sandboxes.append(text)
                example_sandboxes.append(text)

    # The hostile-input catalogue (tests/hostile, owned by its own suite): its committed files, and
    # the small outputs of its generator (the big ones would only be cut at -max_len).
    n_hostile = 0
    hostile = root / "tests" / "hostile"
    if (hostile / "manifest.json").is_file():
        manifest = json.loads((hostile / "manifest.json").read_text(encoding="utf-8"))
        sys.path.insert(0, str(hostile))
        try:
            import generate as hostile_generate  # tests/hostile/generate.py (stdlib only)
        except Exception:  # a broken generator must not stop the corpus
            hostile_generate = None
        for case in manifest.get("cases", []):
            data = None
            if "file" in case and (hostile / case["file"]).is_file():
                data = (hostile / case["file"]).read_bytes()
            elif "generate" in case and hostile_generate is not None:
                spec = dict(case["generate"])
                try:
                    made = hostile_generate.KINDS[spec.pop("kind")](**spec)
                except Exception:
                    continue
                data = made.encode("utf-8") if isinstance(made, str) else made
            if data is None or len(data) > 16384:
                continue
            n_hostile += 1
            corpus.add("fuzz_policy_yaml", data)
            if data.lstrip()[:1] in (b"{", b"["):
                corpus.add("fuzz_policy_json", data)
            corpus.add("fuzz_check", bytes([0]) + data + CHECK_SEPARATOR.encode() + b'resources: {cpu: "1", memory: 1Gi}\n')

    qtest = root / "tests" / "cpp" / "quantity_test.cpp"
    if qtest.exists():
        for lit in re.findall(r'"([^"\\\n]{1,70})"', qtest.read_text(encoding="utf-8")):
            if re.fullmatch(r"\s*[-+]?[0-9.][0-9.eE+\-]*[A-Za-z]{0,2}\s*", lit):
                quantities.add(lit)

    for text in policies:
        corpus.add("fuzz_policy_yaml", text)
        if text.lstrip().startswith(("{", "[")):
            corpus.add("fuzz_policy_json", text)
    # JSON forms of the policies: the same documents as a JSON reader sees them.
    for text in policies:
        doc = yaml_subset_to_json(text)
        if doc is not None:
            corpus.add("fuzz_policy_json", doc)
    for text in sandboxes:
        corpus.add("fuzz_sandbox", text)
    for q in sorted(quantities):
        corpus.add("fuzz_quantity", q)
    # Each policy with a plain request, and each sandbox with an empty policy, as check pairs.
    plain = 'resources: {cpu: "1", memory: 1Gi}\n'
    for text in policies:
        corpus.add("fuzz_check", check_seed(0, text, plain))
    for text in sandboxes:
        corpus.add("fuzz_check", check_seed(0, "{}\n", text))
    # Every example sandbox against every example policy, once plain (Python client) and once with
    # the target's runner inventory and org (TypeScript client).
    for i, p in enumerate(example_policies):
        for j, sb in enumerate(example_sandboxes):
            corpus.add("fuzz_check", check_seed(0 if (i + j) % 2 == 0 else 1 | 8 | 16, p, sb))

    regressions = root / "fuzz" / "regressions"
    for t in TARGETS:
        d = regressions / t
        if d.is_dir():
            for f in sorted(d.iterdir()):
                if f.is_file() and f.name != "README.md":
                    corpus.add(t, f.read_bytes())

    print(f"make_corpus: {len(conformance)} conformance files ({n_cases} cases), {n_examples} example files, "
          f"{n_hostile} hostile inputs -> {out}")
    for t in TARGETS:
        print(f"  {t}: {corpus.counts[t]} seeds")
    if any(corpus.counts[t] == 0 for t in TARGETS):
        print("make_corpus: a target got no seeds", file=sys.stderr)
        return 1
    return 0


def yaml_subset_to_json(text: str) -> str | None:
    """JSON for the simplest policies (block mappings of plain or quoted scalars, flow lists of
    scalars); None for anything else. A seed for the JSON reader, not a general YAML converter."""
    root: dict = {}
    stack: list[tuple[int, dict]] = [(-1, root)]
    for raw in text.split("\n"):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        m = re.match(r"^( *)([A-Za-z0-9_./-]+):(?:\s+(.*))?$", raw)
        if not m:
            return None
        indent, key, value = len(m.group(1)), m.group(2), _strip_comment(m.group(3) or "")
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if not stack:
            return None
        parent = stack[-1][1]
        if key in parent:
            return None
        if value == "":
            child: dict = {}
            parent[key] = child
            stack.append((indent, child))
            continue
        parent[key] = _json_scalar(value)
        if parent[key] is _FAIL:
            return None
    return json.dumps(root, indent=2) + "\n" if root else None


_FAIL = object()


def _json_scalar(value: str):
    if value.startswith("[") and value.endswith("]"):
        items = [v.strip() for v in value[1:-1].split(",") if v.strip()]
        conv = [_json_scalar(v) for v in items]
        return _FAIL if any(c is _FAIL or isinstance(c, (list, dict)) for c in conv) else conv
    if value.startswith(("{", "&", "*", "!", "|", ">")):
        return _FAIL
    if value[:1] in "\"'":
        return value[1:-1]
    if value in ("true", "false"):
        return value == "true"
    if value in ("null", "~"):
        return None
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", value):
        return int(value)
    return value


if __name__ == "__main__":
    sys.exit(main())
