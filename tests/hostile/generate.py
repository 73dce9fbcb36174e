#!/usr/bin/env python3
"""Generates the hostile inputs that are too large to commit (tests/hostile/manifest.json names
them with "generate": {"kind": ..., ...}). Python 3 standard library only.

    python3 tests/hostile/generate.py OUTDIR [NAME ...]

writes every generated case of the manifest (or only the named ones) into OUTDIR and prints the
paths. run.py imports generate_case() instead.
"""

import json
import os
import sys

MIB = 1 << 20
LIMIT = 4 * MIB  # the default document size limit (SPEC §1.2)


# ---- nesting ------------------------------------------------------------------------------------

def deep_yaml_block_map(depth, indent=2, leaf="x: 1", under_base=False):
    """`depth` nested block mappings (`a:` one level deeper each line)."""
    lines, prefix = [], ""
    if under_base:
        lines.append("base:")
        prefix = " " * indent
        depth -= 1  # the root and base already are two levels
    for i in range(depth - 1):
        lines.append(prefix + " " * (indent * i) + "a:")
    lines.append(prefix + " " * (indent * (depth - 1)) + leaf)
    return "\n".join(lines) + "\n"


def deep_yaml_block_seq(depth):
    """`depth` nested block sequences on one line: `- - - … x` (the only block form that fits
    10,000 levels into a few kilobytes; block mappings need one more space per level)."""
    return "- " * depth + "x\n"


def deep_yaml_flow(depth, closed=True, under_base=True, opener="[", closer="]"):
    """`base: [[[…]]]` with `depth` levels in total (the root mapping counts as one)."""
    inner = depth - 1 if under_base else depth
    text = opener * inner + (closer * inner if closed else "")
    return ("base: " + text if under_base else text) + "\n"


def deep_yaml_flow_map(depth):
    """`{a: {a: … 1}}`, `depth` levels."""
    return "{a: " * depth + "1" + "}" * depth + "\n"


def deep_json(depth, shape="array", under_base=True):
    """JSON nested `depth` levels in total, arrays or objects."""
    inner = depth - 1 if under_base else depth
    if shape == "array":
        body = "[" * inner + "]" * inner
    else:
        body = '{"a":' * inner + "1" + "}" * inner
    return '{"base":' + body + "}" if under_base else body


def deep_yaml_base_maps(depth):
    """A valid policy nested exactly `depth` levels: base is opaque, so it may hold anything."""
    return deep_yaml_block_map(depth, under_base=True)


def deep_json_base_objects(depth):
    inner = depth - 2  # root and base
    return '{"base":' + '{"a":' * inner + "{}" + "}" * inner + "}"


def deep_yaml_flow_base_maps(depth):
    inner = depth - 2
    return "base: " + "{a: " * inner + "{}" + "}" * inner + "\n"


# ---- size ---------------------------------------------------------------------------------------

def sized_yaml(size):
    """A valid policy of exactly `size` bytes: one display_name, padded with comment lines."""
    head = "display_name: padded\n"
    rest = size - len(head)
    line = "#" + "c" * 98 + "\n"
    body = line * (rest // len(line))
    tail = rest - len(body)
    if tail:
        body += "#" * (tail - 1) + "\n" if tail > 1 else "\n"
    return head + body


def sized_scalar_yaml(size):
    """A valid policy of exactly `size` bytes whose display_name is one quoted scalar."""
    head, tail = 'display_name: "', '"\n'
    return head + "z" * (size - len(head) - len(tail)) + tail


def huge_scalar(size, fmt="yaml"):
    if fmt == "json":
        return '{"display_name": "' + "s" * size + '"}'
    return 'display_name: "' + "s" * size + '"\n'


def huge_key(size, fmt="json", style="quoted", where="base"):
    key = "k" * size
    if fmt == "json":
        if where == "base":
            return '{"base": {"' + key + '": 1}}'
        return '{"' + key + '": 1}'
    if style == "explicit":
        return "base:\n  ? " + key + "\n  : 1\n"
    return "base:\n  " + key + ": 1\n"


# ---- nodes --------------------------------------------------------------------------------------

def nodes(count, fmt="yaml"):
    """A policy with exactly `count` nodes: root, base, base.l and count - 3 list items."""
    items = count - 3
    if fmt == "json":
        return '{"base": {"l": [' + ",".join(["1"] * items) + "]}}"
    return "base: {l: [" + ",".join(["1"] * items) + "]}\n"


def one_line_json(items, width=40):
    """A valid policy on one line: `items` strings of `width` characters (columns far right)."""
    return '{"base": {"l": [' + ",".join(['"' + "x" * width + '"'] * items) + "]}}"


def one_line_yaml_flow(items, width=38):
    """The same in flow YAML (yaml-cpp reports byte columns; sandgate turns them into characters)."""
    return "base: {l: [" + ", ".join(["x" * width] * items) + "]}\n"


def flow_flood(unit, prefix="[[", suffix="]]\n", size=LIMIT):
    """`prefix` + as many `unit` as fit into `size` bytes + `suffix`: flow collections that
    yaml-cpp would buffer whole before handing the parser a single event."""
    room = size - len(prefix) - len(suffix)
    return prefix + unit * (room // len(unit)) + suffix


def bracket_flood(char="[", size=LIMIT - 1):
    return char * size


# ---- aliases ------------------------------------------------------------------------------------

def alias_uses(count):
    """`count` alias uses inside base (opaque): valid up to the alias limit."""
    return "base:\n  v: &v 1\n  l: [" + ", ".join(["*v"] * count) + "]\n"


def alias_flood(size=LIMIT):
    return flow_flood("*a,", prefix="x: &a 1\ny: [[", suffix="]]\n", size=size)


def alias_bytes(scalar_size, uses):
    """One big anchored string, aliased `uses` times: few nodes, many bytes."""
    return ('display_name: &s "' + "x" * scalar_size + '"\nbase: {l: [' + ",".join(["*s"] * uses) + "]}\n")


def anchors_nested(levels, leaves, referenced=False):
    """`levels` nested anchored lists around `leaves` scalars. Without aliases the anchors cost
    nothing; copying each level's subtree would be quadratic."""
    inner = "[" + ",".join(["1"] * leaves) + "]"
    doc = "base: {l: " + "".join("&a%d [" % i for i in range(levels)) + inner + "]" * levels + "}\n"
    if referenced:
        doc += "x: [" + ",".join("*a%d" % i for i in range(levels)) + "]\n"
    return doc


# ---- repetition ---------------------------------------------------------------------------------

def duplicate_keys(count):
    return "display_name: a\n" * count


def duplicate_keys_long_path(levels, key_size, count):
    """JSON: duplicates under a path of `levels` keys of `key_size` characters each."""
    key = "k" * key_size
    opening = '{"base":' + "".join('{"%s%d":' % (key, i) for i in range(levels))
    return opening + "{" + ",".join(['"d":1'] * count) + "}" + "}" * levels + "}"


def unknown_keys(count, fmt="yaml"):
    if fmt == "json":
        return "{" + ",".join('"k%d":1' % i for i in range(count)) + "}"
    return "".join("k%d: 1\n" % i for i in range(count))


def many_documents(count):
    return "---\n{}\n" * count


# ---- lists a rule could compare pairwise (issue 11: each answered in well under a second) -------

def source_ip_cidrs(count, fmt="yaml"):
    """A policy whose control_plane_access.source_ip_allowlist.cidrs holds `count` canonical
    prefixes (limit 256): /32 hosts of 100.64.0.0/10, every 8th a /24 covering the hosts after it,
    every 16th an IPv6 /64; the last entry repeats the first (an equal, later entry is covered)."""
    def cidr(i):
        if i % 16 == 15:
            return "2001:db8:%x:%x::/64" % (i >> 16, i & 0xFFFF)
        if i % 8 == 0:
            return "100.%d.%d.0/24" % (64 + (i >> 16), (i >> 8) & 255)
        return "100.%d.%d.%d/32" % (64 + (i >> 16), (i >> 8) & 255, i & 255)
    items = [cidr(i) for i in range(count - 1)] + [cidr(0)]
    if fmt == "json":
        return '{"control_plane_access": {"source_ip_allowlist": {"cidrs": [\n' + ",\n".join('"%s"' % c for c in items) + "]}}}\n"
    return "control_plane_access:\n  source_ip_allowlist:\n    cidrs:\n" + "".join('      - "%s"\n' % c for c in items)


def many_tags(count, fmt="yaml"):
    """A sandbox with `count` tags, all distinct but the last, which repeats the first."""
    tags = ["t%d" % i for i in range(count - 1)] + ["t0"]
    if fmt == "json":
        return '{"container_image": "python:3.11", "tags": [\n' + ",\n".join('"%s"' % t for t in tags) + "]}\n"
    return "container_image: python:3.11\ntags:\n" + "".join("  - %s\n" % t for t in tags)


def denied_prefixes(count, fmt="yaml"):
    """A policy with `count` denied annotation prefixes p<i>.example.com/ (for many_annotations)."""
    prefixes = ["p%d.example.com/" % i for i in range(count)]
    if fmt == "json":
        return '{"constraints": {"metadata": {"denied_annotation_prefixes": [\n' + ",\n".join('"%s"' % p for p in prefixes) + "]}}}\n"
    return "constraints:\n  metadata:\n    denied_annotation_prefixes:\n" + "".join("      - %s\n" % p for p in prefixes)


def many_annotations(count, every=1000, fmt="yaml"):
    """A sandbox with `count` annotations a<i>.example.com/k; every `every`-th key is
    p<i>.example.com/k instead, which denied_prefixes(count) denies."""
    keys = [("p%d.example.com/k" if i % every == every - 1 else "a%d.example.com/k") % i for i in range(count)]
    if fmt == "json":
        return '{"container_image": "python:3.11", "annotations": {\n' + ",\n".join('"%s": "v"' % k for k in keys) + "}}\n"
    return "container_image: python:3.11\nannotations:\n" + "".join("  %s: v\n" % k for k in keys)


KINDS = {f.__name__: f for f in [
    deep_yaml_block_map, deep_yaml_block_seq, deep_yaml_flow, deep_yaml_flow_map, deep_json,
    deep_yaml_base_maps, deep_json_base_objects, deep_yaml_flow_base_maps,
    sized_yaml, sized_scalar_yaml, huge_scalar, huge_key,
    nodes, one_line_json, one_line_yaml_flow, flow_flood, bracket_flood,
    alias_uses, alias_flood, alias_bytes, anchors_nested,
    duplicate_keys, duplicate_keys_long_path, unknown_keys, many_documents,
    source_ip_cidrs, many_tags, denied_prefixes, many_annotations,
]}


def generate_case(case, outdir, suffix=""):
    """Writes the generated input of one manifest case (or of its `check` policy, with a suffix)
    into `outdir`; returns its path."""
    spec = dict(case["generate"])
    kind = spec.pop("kind")
    if kind not in KINDS:
        raise ValueError("%s: unknown generator kind %r" % (case["name"], kind))
    text = KINDS[kind](**spec)
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = os.path.join(outdir, case["name"] + suffix + "." + case.get("ext", "yaml"))
    with open(path, "wb") as f:
        f.write(data)
    return path


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    outdir, names = argv[1], set(argv[2:])
    os.makedirs(outdir, exist_ok=True)
    for case in manifest["cases"]:
        if not names or case["name"] in names:
            if "generate" in case:
                print(generate_case(case, outdir))
            policy = case.get("check", {}).get("policy", {})
            if "generate" in policy:
                print(generate_case(dict(policy, name=case["name"]), outdir, "-policy"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
