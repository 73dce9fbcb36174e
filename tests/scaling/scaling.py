#!/usr/bin/env python3
"""Scaling test: no rule may do work that grows faster than its input (issue 11).

    python3 tests/scaling/scaling.py --driver build/default/tests/scaling/sandgate_scaling
        [--sizes 256,512,1024] [--max-ratio 2.2] [--filter TEXT] [--format json|yaml]
        [--node-limit] [--measure callgrind|time] [--list] [--keep DIR]

Every array- and map-valued field of the four schemas (schema/{policy,sandbox,runners,org}
.schema.json) is found by walking the schemas, nested ones and `additionalProperties` maps
included; opaque subtrees (`x-sandgate-opaque`) are skipped and listed. For each field a document
is written with that field holding 1 and then S, 2S, 4S … entries (the other fields as in a
realistic document), and measured through the public API by the driver (scaling_driver.cpp):
`validate_policy` for a policy, `Runners::parse` for runners, and for a sandbox `load_document` +
`Engine::check` against a policy (and runners) whose rules touch that field. A policy or runners
field is also measured through `check` of a fixed sandbox against it, and where a sandbox list
meets a policy list (annotations × denied prefixes, egress rules × the egress envelope, …) both
grow together, so a rule comparing every pair shows up.

Work is counted, not timed: instructions under callgrind (one valgrind process for every
document; the driver dumps each measurement with its id), glibc's malloc and free left out (their
cost per call depends on the heap earlier measurements left, see ALLOCATOR). The test fails when the work added by
the entries, W(n) - W(1), grows by more than --max-ratio (2.2) per doubling — or, at sizes where
n log n itself grows faster than that, by more than n log n does (+2 %) — or when a document is
not answered. --node-limit picks, per field, sizes up to the largest document under the 100,000-node
limit (bench/scaling.sh; slow under callgrind, so `--measure time` is offered there: wall time of
one run, an indication rather than a verdict). Python 3 standard library only.
"""

import argparse
import copy
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEMAS = ["policy", "sandbox", "runners", "org"]
NODE_LIMIT = 100000
BYTE_LIMIT = 4 << 20
# glibc's allocator is left out of the count (callgrind --toggle-collect: collection flips off on
# entry and back on at exit). What one malloc costs inside glibc depends on the heap the earlier
# measurements of the same process left behind, not on the document: https_hostname_except grew
# 2.26× per doubling from 192 to 384 entries measured alone and 2.32× after the other fields, past
# the n log n limit (2.31×), with glibc's _int_malloc 43,566 → 118,528 instructions (2.7×) there.
# Each allocation still costs its caller's instructions (the call, operator new), so a rule
# allocating per pair still shows (planted: 4.06×).
ALLOCATOR = ["malloc", "free", "realloc", "calloc", "posix_memalign", "aligned_alloc", "memalign"]


# ---- the fields: a walk over the schemas ---------------------------------------------------------

class Field:
    """An array- or map-valued field: `steps` are (key, marker) pairs from the document's root,
    marker "[]" (an array: the walk goes on into one item), "{}" (a map: into one value) or None;
    the last step is the field itself."""

    def __init__(self, schema, steps, kind, item_schema):
        self.schema, self.steps, self.kind, self.item_schema = schema, steps, kind, item_schema

    @property
    def path(self):
        """e.g. constraints.network.allowed_egress[].ports[] — the dotted path, [] for an array,
        {} for a map (a field that may be either appears twice: mounted_files[] and mounted_files{})."""
        return ".".join(k + (m or "") for k, m in self.steps)

    @property
    def name(self):
        return "%s:%s" % (self.schema, self.path)


def load_schema(name):
    with open(os.path.join(ROOT, "schema", name + ".schema.json"), encoding="utf-8") as f:
        return json.load(f)


def resolve(root, s):
    while isinstance(s, dict) and "$ref" in s:
        ref = s["$ref"]
        assert ref.startswith("#/"), ref
        s = root
        for part in ref[2:].split("/"):
            s = s[part]
    return s


def types_of(s):
    t = s.get("type", [])
    return [t] if isinstance(t, str) else list(t)


def walk_schema(name):
    """Returns (fields, skipped): every array/map field, and the opaque subtrees left out."""
    root = load_schema(name)
    fields, skipped = [], []

    def walk(s, steps, depth):
        s = resolve(root, s)
        assert depth < 32, "schema recursion at " + repr(steps)
        if s.get("x-sandgate-opaque"):
            skipped.append("%s:%s" % (name, ".".join(k + (m or "") for k, m in steps)))
            return
        types = types_of(s)
        if "items" in s and ("array" in types or not types):
            if not steps:
                raise AssertionError("%s: the document itself is an array" % name)
            here = steps[:-1] + [(steps[-1][0], "[]")]
            fields.append(Field(name, here, "array", resolve(root, s["items"])))
            walk(s["items"], here, depth + 1)
        if isinstance(s.get("additionalProperties"), dict):
            here = steps[:-1] + [(steps[-1][0], "{}")]
            fields.append(Field(name, here, "map", resolve(root, s["additionalProperties"])))
            walk(s["additionalProperties"], here, depth + 1)
        for key, sub in s.get("properties", {}).items():
            walk(sub, steps + [(key, None)], depth + 1)

    walk(root, [], 0)
    return fields, skipped


# Opaque subtrees are not walked, but rules read some of their lists: the policy's base annotations
# and labels (P rules, R-ANN-1) and base containers (P-3, R-IMG). They are measured too.
OPAQUE_READ = [("policy", "base.metadata.annotations{}"), ("policy", "base.metadata.labels{}"),
               ("policy", "base.spec.containers[]")]


def all_fields():
    fields, skipped = [], []
    for name in SCHEMAS:
        f, s = walk_schema(name)
        fields += f
        skipped += s
    for schema, path in OPAQUE_READ:
        steps = steps_of(path)
        fields.append(Field(schema, steps, "map" if steps[-1][1] == "{}" else "array", {"type": "string"}))
    return fields, skipped


# ---- documents ----------------------------------------------------------------------------------
# A realistic document of each kind, the context a field is placed into.

BASE_POLICY = {
    "display_name": "scaling",
    "base": {"metadata": {"annotations": {"example.com/owner": "platform"}, "labels": {"team": "platform"}}},
    "constraints": {
        "resources": {"min_cpu": "10m", "max_cpu": "64", "min_memory": "1Mi", "max_memory": "256Gi",
                      "default_cpu": "100m", "default_memory": "128Mi", "cpu_ceiling": "100000",
                      "memory_ceiling": "100Ti", "max_gpu_count": 8},
        "image": {"allowed_registries": ["docker.io/library", "ghcr.io/acme"]},
        "network": {
            "allowed_egress": [
                {"cidr": {"cidr": "10.0.0.0/8", "except": ["10.255.0.0/16"]}},
                {"https_hostname": "*.example.com", "https_hostname_except": ["bad.example.com"]},
                {"https_hostname": "pypi.org", "ports": [{"port": 443}]},
                {"tenant": "TENANT_SCOPE_SAME_ORG"},
            ],
            "default_egress": [{"cidr": {"cidr": "10.1.0.0/16"}}],
            "allowed_ingress": [{"cidr": {"cidr": "192.168.0.0/16"}, "ports": [{"port": 8080, "end_port": 8090}]},
                                {"tenant": "TENANT_SCOPE_SAME_ORG"}],
            "default_ingress": [{"tenant": "TENANT_SCOPE_SAME_USER"}],
        },
        "security": {"allowed_capabilities": ["NET_ADMIN", "SYS_PTRACE"],
                     "allowed_seccomp_profiles": ["RuntimeDefault", "Localhost/strict.json"],
                     "allowed_runtime_classes": ["kata-qemu", "gvisor"], "default_cpu_runtime_class": "kata-qemu"},
        "instance": {"allowed_instance_types": ["gd-8xh100ib-i128", "cd-gp-a192-genoa"]},
        "lifecycle": {"default_lifetime_seconds": 3600},
        "metadata": {"denied_annotation_prefixes": ["kubernetes.io/", "coreweave.com/"], "max_annotation_count": 0},
        "volumes": {"allowed_media": ["STORAGE_MEDIUM_DISK", "STORAGE_MEDIUM_MEMORY"], "max_size": "100Gi"},
    },
    "control_plane_access": {"source_ip_allowlist": {"cidrs": ["203.0.113.0/24", "2001:db8::/32"]}},
}

BASE_SANDBOX = {
    "container_image": "python:3.11",
    "placement_mode": "cks",
    "runner_ids": ["r0"],
    "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "2Gi"}},
    "network": {"egress": [{"dns_name": "pypi.org"}, {"cidr": "10.2.0.0/16", "ports": [443]}]},
    "annotations": {"team": "ml-infra"},
    "environment_variables": {"MODE": "train"},
    "tags": ["training"],
    "max_lifetime_seconds": 1800,
}

BASE_RUNNERS = {"runners": [
    {"runner_id": "r0", "mode": "cks", "runtime_classes": {"cpu": "kata-qemu"},
     "gpu_types": [{"type": "H100", "memory_gb": 80}], "max_gpu_count": 8},
    {"runner_id": "serverless", "mode": "serverless"},
]}

BASE_ORG = {"gpu_allowed": True, "max_gpus_per_sandbox": 8, "serverless_allowed": True}

BASES = {"policy": BASE_POLICY, "sandbox": BASE_SANDBOX, "runners": BASE_RUNNERS, "org": BASE_ORG}

# The object an intermediate step descends into, by the path of that step and the key that comes
# next: a network rule on the way to `cidr` is a CIDR rule, on the way to `selector` a selector rule.
def rule_for(next_key, ingress, policy):
    cidr = "192.168.0.0/16" if ingress else "10.0.0.0/8"
    if next_key == "selector":
        return {"selector": {"pod_labels": {"app": "web"}}}
    if next_key in ("https_hostname_except", "dns_name_except"):
        return {("https_hostname" if policy else "dns_name"): "*.example.com"}
    return {"cidr": {"cidr": cidr}} if policy or next_key == "cidr" else {"cidr": cidr}


CONTEXT = {
    "containers[]": lambda k: {"name": "main", "image": "python:3.11", "primary": True,
                               "resources": {"cpu": "100m", "memory": "128Mi"}},
    "object_storage_access": lambda k: {"permission": "read"},
    "runners[]": lambda k: {"runner_id": "r0", "mode": "cks"},
}
for _list in ("allowed_egress", "default_egress", "allowed_ingress", "default_ingress"):
    CONTEXT["constraints.network.%s[]" % _list] = (lambda ing: lambda k: rule_for(k, ing, True))("ingress" in _list)
    CONTEXT["constraints.network.%s[].cidr" % _list] = (
        lambda ing: lambda k: {"cidr": "192.168.0.0/16" if ing else "10.0.0.0/8"})("ingress" in _list)
for _list in ("egress", "ingress"):
    CONTEXT["network.%s[]" % _list] = (lambda ing: lambda k: rule_for(k, ing, False))(_list == "ingress")
    CONTEXT["network.%s[].cidr" % _list] = (
        lambda ing: lambda k: {"cidr": "192.168.0.0/16" if ing else "10.0.0.0/8"})(_list == "ingress")


def cidr4(i, bits=32):
    """Distinct canonical IPv4 prefixes inside 10.0.0.0/8: /32 hosts, /24 networks."""
    if bits == 24:
        return "10.%d.%d.0/24" % ((i >> 8) & 255, i & 255)
    return "10.%d.%d.%d/32" % ((i >> 16) & 255, (i >> 8) & 255, i & 255)


def source_cidr(i):
    # Canonical, distinct; every 8th a /24 that covers the /32 hosts after it, so P-12 has
    # covered entries to find (nested and disjoint prefixes, IPv4 and IPv6).
    if i % 16 == 15:
        return "2001:db8:%x:%x::/64" % (i >> 16, i & 0xFFFF)
    if i % 8 == 0:
        return "100.%d.%d.0/24" % ((i >> 16) & 255, (i >> 8) & 255)
    return "100.%d.%d.%d/32" % ((i >> 16) & 255, (i >> 8) & 255, i & 255)


def port(i):
    return 1 + i % 65535


def egress_rule(i):
    """Sandbox egress rules inside the base envelope: hosts of 10/8, names under *.example.com."""
    return {"dns_name": "h%d.example.com" % i} if i % 2 else {"cidr": cidr4(i), "ports": [443]}


def envelope_rule(i):
    return {"https_hostname": "*.s%d.example.com" % i} if i % 2 else {"cidr": {"cidr": cidr4(i, 24)}}


# The n-th entry of each field; a field without an entry here gets a generic one from its schema
# (and the report says so), so a field added to a schema is measured without a change here.
ITEMS = {
    # policy
    "policy:control_plane_access.source_ip_allowlist.cidrs[]": source_cidr,
    "policy:constraints.image.allowed_registries[]": lambda i: "registry%d.example.com/team" % i,
    "policy:constraints.image.allowed_images[]": lambda i: "docker.io/library/img%d:1.%d" % (i, i),
    "policy:constraints.network.allowed_egress[]": envelope_rule,
    "policy:constraints.network.default_egress[]": lambda i: {"cidr": {"cidr": cidr4(i, 24)}},
    "policy:constraints.network.allowed_ingress[]": lambda i: {"cidr": {"cidr": "172.%d.%d.0/24" % (16 + (i >> 8) % 16, i & 255)}},
    "policy:constraints.network.default_ingress[]": lambda i: {"cidr": {"cidr": "172.%d.%d.0/24" % (16 + (i >> 8) % 16, i & 255)}},
    "policy:constraints.security.allowed_capabilities[]": lambda i: "CAP_X%d" % i,
    "policy:constraints.security.allowed_seccomp_profiles[]": lambda i: "Localhost/p%d.json" % i,
    "policy:constraints.security.allowed_runtime_classes[]": lambda i: "rc-%d" % i,
    "policy:constraints.instance.allowed_instance_types[]": lambda i: "it-%d" % i,
    "policy:constraints.metadata.denied_annotation_prefixes[]": lambda i: "p%d.example.com/" % i,
    "policy:constraints.volumes.allowed_media[]": lambda i: ["STORAGE_MEDIUM_DISK", "STORAGE_MEDIUM_MEMORY", "STORAGE_MEDIUM_UNSPECIFIED"][i % 3],
    # sandbox
    "sandbox:args[]": lambda i: "--arg%d" % i,
    "sandbox:mounted_files[]": lambda i: {"path": "/etc/f/%d" % i, "content": "x"},
    "sandbox:mounted_files{}": lambda i: ("/etc/f/%d" % i, "x"),
    "sandbox:volumes[]": lambda i: {"name": "v%d" % i, "mount_path": "/mnt/v%d" % i, "size": "1Gi"},
    "sandbox:network.egress[]": egress_rule,
    "sandbox:network.ingress[]": lambda i: {"cidr": "192.168.%d.%d/32" % ((i >> 8) & 255, i & 255)},
    "sandbox:network.exposed_ports[]": port,
    "sandbox:services[]": lambda i: {"port": port(i), "name": "s%d" % i},
    "sandbox:ports[]": lambda i: {"container_port": port(i)},
    "sandbox:annotations{}": lambda i: ("a%d.example.com/k" % i, "v"),
    "sandbox:environment_variables{}": lambda i: ("VAR_%d" % i, "x"),
    "sandbox:secrets[]": lambda i: {"store": "vault", "name": "s%d" % i},
    "sandbox:tags[]": lambda i: "tag-%d" % i,
    "sandbox:runner_ids[]": lambda i: "r%d" % i,
    "sandbox:security_context.capabilities_add[]": lambda i: "CAP_X%d" % i,
    "sandbox:security_context.capabilities_drop[]": lambda i: "CAP_X%d" % i,
    "sandbox:object_storage_access.buckets[]": lambda i: "bucket-%d" % i,
    "sandbox:containers[]": lambda i: {"name": "c%d" % i, "image": "python:3.11", "primary": i == 0,
                                       "resources": {"cpu": "10m", "memory": "16Mi"}},
    "sandbox:containers[].volume_mounts[]": lambda i: {"volume": "v%d" % i, "mount_path": "/mnt/v%d" % i},
    "sandbox:containers[].args[]": lambda i: "--arg%d" % i,
    "sandbox:containers[].environment_variables{}": lambda i: ("VAR_%d" % i, "x"),
    "sandbox:containers[].mounted_files[]": lambda i: {"path": "/etc/f/%d" % i, "content": "x"},
    "sandbox:containers[].mounted_files{}": lambda i: ("/etc/f/%d" % i, "x"),
    "sandbox:containers[].secrets[]": lambda i: {"store": "vault", "name": "s%d" % i},
    "sandbox:containers[].security_context.capabilities_add[]": lambda i: "CAP_X%d" % i,
    "sandbox:containers[].security_context.capabilities_drop[]": lambda i: "CAP_X%d" % i,
    # parts of the policy's opaque base that rules read
    "policy:base.metadata.annotations{}": lambda i: ("a%d.example.com/k" % i if i % 2 else "b%d.example.com/k" % i, "pinned"),
    "policy:base.metadata.labels{}": lambda i: ("l%d" % i, "v"),
    "policy:base.spec.containers[]": lambda i: {"name": "side%d" % i, "image": "ghcr.io/acme/side:%d" % i},
    # runners
    "runners:runners[]": lambda i: {"runner_id": "r%d" % i, "mode": "cks", "gpu_types": [{"type": "H100", "memory_gb": 80}]},
    "runners:runners[].gpu_types[]": lambda i: {"type": "T%d" % i, "memory_gb": 1 + i % 200},
}

# The same for every network rule list, of the policy and of the sandbox.
for _schema, _lists in (("policy", ["constraints.network.%s[]" % l for l in
                                    ("allowed_egress", "default_egress", "allowed_ingress", "default_ingress")]),
                        ("sandbox", ["network.egress[]", "network.ingress[]"])):
    for _rules in _lists:
        _ing = "ingress" in _rules
        ITEMS["%s:%s.cidr.except[]" % (_schema, _rules)] = (
            (lambda i: "192.168.%d.%d/32" % ((i >> 8) & 255, i & 255)) if _ing else (lambda i: cidr4(i, 24)))
        ITEMS["%s:%s.ports[]" % (_schema, _rules)] = (
            (lambda i: {"port": port(i)}) if _schema == "policy" else (lambda i: {"port": port(i), "protocol": "TCP"}))
        if not _ing:
            ITEMS["%s:%s.selector.pod_labels{}" % (_schema, _rules)] = lambda i: ("k%d" % i, "v%d" % i)
            ITEMS["%s:%s.selector.namespace_labels{}" % (_schema, _rules)] = lambda i: ("k%d" % i, "v%d" % i)
            ITEMS["%s:%s.%s[]" % (_schema, _rules, "https_hostname_except" if _schema == "policy" else "dns_name_except")] = (
                lambda i: "x%d.example.com" % i)

# Sandbox fields whose rules compare them with a policy or runners list: both grow together.
PAIRED = {
    "sandbox:annotations{}": ("policy", "constraints.metadata.denied_annotation_prefixes[]"),
    "sandbox:network.egress[]": ("policy", "constraints.network.allowed_egress[]"),
    "sandbox:network.ingress[]": ("policy", "constraints.network.allowed_ingress[]"),
    "sandbox:security_context.capabilities_add[]": ("policy", "constraints.security.allowed_capabilities[]"),
    "sandbox:containers[].security_context.capabilities_add[]": ("policy", "constraints.security.allowed_capabilities[]"),
    "sandbox:runner_ids[]": ("runners", "runners[]"),
    "sandbox:secrets[]": ("sandbox", "environment_variables{}"),
    "sandbox:containers[].secrets[]": ("sandbox", "containers[].environment_variables{}"),
    "sandbox:containers[].volume_mounts[]": ("sandbox", "volumes[]"),
    "sandbox:containers[]": ("policy", "constraints.image.allowed_images[]"),
    # (checked through `check` of the base sandbox: base annotations merge with the client's)
    "policy:base.metadata.annotations{}": ("sandbox", "annotations{}"),
}
# Sandbox fields that the SandboxDefaults layer and the request both give, merged (N-LAYER): also
# measured with the defaults layer holding as many other entries.
LAYERED = {"sandbox:annotations{}", "sandbox:environment_variables{}", "sandbox:tags[]", "sandbox:secrets[]"}
# Same-document pairs: the second field's items, when the sandbox holds the first field.
SAME_DOC_ITEMS = {
    "environment_variables{}": lambda i: ("s%d" % i, "x"),  # secrets' env vars are their names
    "containers[].environment_variables{}": lambda i: ("s%d" % i, "x"),
    "volumes[]": lambda i: {"name": "v%d" % i, "size": "1Gi"},
}


def generic_item(s, i):
    """An entry for a field without one in ITEMS, from its item schema."""
    t = types_of(s)
    if "enum" in s:
        return s["enum"][i % len(s["enum"])]
    if "string" in t or not t:
        return "item-%d" % i
    if "integer" in t or "number" in t:
        lo, hi = s.get("minimum", 0), s.get("maximum", 2 ** 31 - 1)
        return lo + i % (hi - lo + 1)
    if "boolean" in t:
        return bool(i % 2)
    if "object" in t:
        out = {}
        for key in s.get("required", []):
            out[key] = generic_item(s["properties"][key], i) if "properties" in s else "x"
        return out
    if "array" in t:
        return []
    return "item-%d" % i


def item_of(field, i):
    gen = ITEMS.get(field.name)
    return gen(i) if gen else generic_item(field.item_schema, i)


def place(doc, steps, values, kind):
    """Puts `values` (a list, or a list of (key, value) pairs for a map) at `steps` in `doc`. On the
    way, an array becomes one item (CONTEXT's, else the document's first, else {}) and a missing
    object CONTEXT's or {}."""
    node, prefix = doc, ""
    for i, (key, marker) in enumerate(steps[:-1]):
        next_key = steps[i + 1][0]
        prefix += ("." if prefix else "") + key
        if marker == "[]":
            prefix += "[]"
            items = node.get(key)
            if prefix in CONTEXT or not isinstance(items, list) or not items or not isinstance(items[0], dict):
                node[key] = [CONTEXT[prefix](next_key) if prefix in CONTEXT else {}]
            node = node[key][0]
        else:
            if not isinstance(node.get(key), dict):
                node[key] = CONTEXT[prefix](next_key) if prefix in CONTEXT else {}
            node = node[key]
    key, _ = steps[-1]
    node[key] = dict(values) if kind == "map" else list(values)
    return doc


def steps_of(path):
    """The inverse of Field.path: "a.b[].c{}" → [("a", None), ("b", "[]"), ("c", "{}")]."""
    out = []
    for part in path.split("."):
        m = re.fullmatch(r"(.*?)(\[\]|\{\})?", part)
        out.append((m.group(1), m.group(2)))
    return out


def document(field, n):
    doc = copy.deepcopy(BASES[field.schema])
    if field.schema == "sandbox" and field.path.startswith("containers[]"):
        # The multi-container form excludes the single-container fields.
        for key in ("container_image", "resources"):
            doc.pop(key, None)
    return place(doc, field.steps, (item_of(field, i) for i in range(n)), field.kind)


def count_nodes(v):
    if isinstance(v, dict):
        return 1 + sum(count_nodes(x) for x in v.values())
    if isinstance(v, list):
        return 1 + sum(count_nodes(x) for x in v)
    return 1


def dump(value, fmt):
    if fmt == "json":
        return json.dumps(value, separators=(",", ":"))
    return yaml_dump(value)


def yaml_dump(value, indent=0):
    """Block YAML with every string double-quoted (JSON escapes are valid YAML escapes)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}\n"
        out = "\n" if indent else ""
        for k, v in value.items():
            out += pad + json.dumps(k) + ":" + (" " if not isinstance(v, (dict, list)) or not v else "") + \
                   yaml_dump(v, indent + 2)
        return out
    if isinstance(value, list):
        if not value:
            return "[]\n"
        out = "\n"
        for v in value:
            out += pad + "- " + yaml_dump(v, indent + 2).lstrip(" \n") if isinstance(v, dict) and v else \
                pad + "-" + (" " if not isinstance(v, (dict, list)) or not v else "") + yaml_dump(v, indent + 2)
        return out
    return json.dumps(value) + "\n"


# ---- the plan -----------------------------------------------------------------------------------

class Case:
    """One series: a field measured through one entry point at several sizes."""

    def __init__(self, field, via, paired=None, layered=False):
        self.field, self.via, self.paired, self.layered = field, via, paired, layered
        self.sizes, self.work, self.diagnostics, self.nodes, self.bytes = [], {}, {}, {}, {}

    @property
    def name(self):
        return self.field.name + ("" if self.via == self.field.schema else " via " + self.via) + \
            (" × " + self.paired[0] + ":" + self.paired[1] if self.paired else "") + \
            (" + defaults layer" if self.layered else "")


def cases_for(fields):
    out = []
    for f in fields:
        if f.schema == "policy":
            out.append(Case(f, "policy"))
            out.append(Case(f, "check", PAIRED.get(f.name)))
        elif f.schema == "runners":
            out.append(Case(f, "runners"))
            out.append(Case(f, "check"))
        elif f.schema == "org":
            out.append(Case(f, "org"))
        else:
            out.append(Case(f, "check", PAIRED.get(f.name)))
            if f.name in LAYERED:
                out.append(Case(f, "check", layered=True))
    return out


def build_inputs(case, n):
    """The four documents of one measurement: the field's own at n entries (and a paired list at n
    entries too), the others as in BASES."""
    f = case.field
    docs = {name: copy.deepcopy(BASES[name]) for name in SCHEMAS}
    docs[f.schema] = document(f, n)
    if case.layered:  # the SandboxDefaults layer: the same field, n other entries
        docs["defaults"] = place({}, f.steps, (item_of(f, n + i) for i in range(n)), f.kind)
    if case.paired and not (case.via != "check" and f.schema == "policy"):
        where, path = case.paired
        steps = steps_of(path)
        kind = "map" if steps[-1][1] == "{}" else "array"
        if where == f.schema:
            place(docs[where], steps, (SAME_DOC_ITEMS[path](i) for i in range(n)), kind)
        else:
            other = Field(where, steps, kind, None)
            place(docs[where], steps, (item_of(other, i) for i in range(n)), kind)
    return docs


def write_inputs(case, n, fmt, outdir, tag):
    """Writes the documents of one measurement; returns the plan line's files (measured, policy,
    runners, org)."""
    docs = build_inputs(case, n)
    files = {}
    for name, value in docs.items():
        path = os.path.join(outdir, "%s-%s.%s" % (tag, name, fmt))
        with open(path, "w", encoding="utf-8") as out:
            out.write(dump(value, fmt))
        files[name] = path
    case.nodes[n] = max(count_nodes(v) for v in docs.values())
    case.bytes[n] = max(os.path.getsize(p) for p in files.values())
    target = "sandbox" if case.via == "check" else case.via
    return [files[target], files["policy"], files["runners"], files["org"], files.get("defaults", "-")]


def sizes_under_node_limit(case, steps):
    """Sizes S/2^(steps-1) … S where S is the most entries whose documents all stay under the
    node and byte limits."""
    def fits(n):
        for doc in build_inputs(case, n).values():
            if count_nodes(doc) > NODE_LIMIT or len(json.dumps(doc, separators=(",", ":"))) > BYTE_LIMIT:
                return False
        return True
    lo, hi = 1, 2
    while fits(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return [max(2, lo >> k) for k in reversed(range(steps))]


# ---- measuring ----------------------------------------------------------------------------------

def parse_dumps(outdir):
    """{measurement id: instructions} from callgrind's dump files."""
    work = {}
    for path in glob.glob(os.path.join(outdir, "callgrind.out*")):
        reason, total = None, None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: "):
                    reason = line.split(": ", 2)[2].split(": ", 1)[1].strip() if line.count(": ") >= 3 else None
                elif line.startswith("summary:") or line.startswith("totals:"):
                    total = int(line.split()[1])
        if reason is not None and total is not None:
            work[reason] = total
    return work


def measure(cases, args, outdir):
    plan = []
    for ci, case in enumerate(cases):
        for n in case.sizes:
            tag = "c%d-n%d" % (ci, n)
            files = write_inputs(case, n, args.format, outdir, tag)
            plan.append("\t".join([tag, case.via] + files))
    plan_path = os.path.join(outdir, "plan.tsv")
    with open(plan_path, "w", encoding="utf-8") as f:
        f.write("\n".join(plan) + "\n")
    driver = os.path.abspath(args.driver)
    if args.measure == "callgrind":
        argv = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--dump-line=no", "--dump-instr=no",
                "--compress-strings=no", "--compress-pos=no"] + [
                    "--toggle-collect=" + f for f in ALLOCATOR] + [
                "--callgrind-out-file=" + os.path.join(outdir, "callgrind.out"), driver, plan_path]
    else:
        argv = [driver, plan_path]
    started = time.monotonic()
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=outdir)
    seconds = time.monotonic() - started
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-4000:])
        raise SystemExit("scaling: the driver failed (exit %d)" % proc.returncode)
    answered = {}
    for line in proc.stdout.decode("utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        tag, diagnostics, ms = line.split("\t")
        answered[tag] = (int(diagnostics), float(ms))
    work = parse_dumps(outdir) if args.measure == "callgrind" else {t: v[1] for t, v in answered.items()}
    for ci, case in enumerate(cases):
        for n in case.sizes:
            tag = "c%d-n%d" % (ci, n)
            if tag not in answered or tag not in work:
                raise SystemExit("scaling: no measurement for %s at %d entries" % (case.name, n))
            case.work[n] = work[tag]
            case.diagnostics[n] = answered[tag][0]
    return seconds


def allowed_ratio(a, b, max_ratio):
    """The most growth per doubling from a to b entries: max_ratio (2.2), or what n log n itself
    grows by there, which is more at small sizes (2 · log(2n) / log n: 2.29 at 128, 2.22 at 512),
    plus 2 %. A pairwise rule grows by 3-4×."""
    n_log_n = (b * math.log2(b)) / (a * math.log2(a)) if a > 1 else 2.0
    return max(max_ratio, (n_log_n ** (1.0 / math.log2(b / a))) * 1.02)


def verdict(case, max_ratio, floor):
    """Ratios of the work the entries add, W(n) - W(1), per doubling; problems found."""
    base = case.work[case.sizes[0]]
    ratios, problems = [], []
    grown = case.sizes[1:]
    for a, b in zip(grown, grown[1:]):
        wa, wb = case.work[a] - base, case.work[b] - base
        if wa <= floor and wb <= floor:
            ratios.append(None)  # the entries cost (next to) nothing: nothing can grow
            continue
        r = (wb / max(wa, 1)) ** (1.0 / math.log2(b / a))  # per doubling
        ratios.append(r)
        limit = allowed_ratio(a, b, max_ratio)
        if r > limit:
            problems.append("%d → %d entries: work grew %.2f× (limit %.2f× per doubling)" % (a, b, r, limit))
    return ratios, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--driver", help="the sandgate_scaling program")
    parser.add_argument("--sizes", default="256,512,1024", help="entries per document after the 1-entry baseline (doubling)")
    parser.add_argument("--max-ratio", type=float, default=2.2, help="most growth of the entries' work per doubling")
    parser.add_argument("--floor", type=int, default=20000,
                        help="instructions below which the entries' work counts as none (default 20000)")
    parser.add_argument("--filter", default="", help="only fields or series whose name contains this")
    parser.add_argument("--format", choices=["json", "yaml"], default="json")
    parser.add_argument("--measure", choices=["callgrind", "time"], default="callgrind")
    parser.add_argument("--node-limit", action="store_true",
                        help="per field, sizes up to the largest document under the 100,000-node limit")
    parser.add_argument("--steps", type=int, default=3, help="with --node-limit: how many sizes (default 3)")
    parser.add_argument("--list", action="store_true", help="list the fields and exit")
    parser.add_argument("--keep", metavar="DIR", help="write the documents and dumps into DIR and keep them")
    args = parser.parse_args()

    fields, skipped = all_fields()
    if args.list:
        for f in fields:
            print("%-6s %s%s" % (f.kind, f.name, "" if f.name in ITEMS else "  (generic entries)"))
        for s in skipped:
            print("skip   %s (x-sandgate-opaque)" % s)
        print("%d fields (%s); %d opaque subtrees skipped" % (
            len(fields), ", ".join("%s %d" % (n, sum(f.schema == n for f in fields)) for n in SCHEMAS), len(skipped)))
        return 0
    if not args.driver:
        parser.error("--driver is required")
    cases = [c for c in cases_for(fields) if args.filter in c.name]
    if not cases:
        raise SystemExit("scaling: no field matches --filter %r" % args.filter)
    sizes = [int(s) for s in args.sizes.split(",")]
    for c in cases:
        c.sizes = [1] + (sizes_under_node_limit(c, args.steps) if args.node_limit else sizes)
    if args.measure == "callgrind" and not shutil.which("valgrind"):
        raise SystemExit("scaling: valgrind is not installed (scripts/install-deps.sh installs it)")

    outdir = args.keep or tempfile.mkdtemp(prefix="sandgate-scaling-")
    os.makedirs(outdir, exist_ok=True)
    try:
        started = time.monotonic()
        seconds = measure(cases, args, outdir)
        total = time.monotonic() - started
    finally:
        if not args.keep:
            shutil.rmtree(outdir, ignore_errors=True)

    unit = "instr" if args.measure == "callgrind" else "ms"
    timed = args.measure == "time"
    failed = []
    print("%-96s %s" % ("series (W(n) − W(1) per doubling)", "entries: work in %s" % unit))
    for c in cases:
        ratios, problems = verdict(c, args.max_ratio, args.floor if args.measure == "callgrind" else 0.5)
        shown = " ".join("—" if r is None else "%.2f" % r for r in ratios)
        status = ("over" if timed else "FAIL") if problems else "ok"
        sizes = "  ".join("%d:%s" % (n, ("%d" % c.work[n]) if unit == "instr" else "%.1f" % c.work[n]) for n in c.sizes)
        print("%-4s %-80s %-12s %s  (%d nodes, %d bytes at %d; %d diagnostics)" % (
            status, c.name, shown, sizes, c.nodes[c.sizes[-1]], c.bytes[c.sizes[-1]], c.sizes[-1], c.diagnostics[c.sizes[-1]]))
        if problems:
            failed.append((c, problems))
    generic = sorted({c.field.name for c in cases if c.field.name not in ITEMS})
    print("%d fields (%d series) measured at %s entries; opaque subtrees skipped: %s; measuring took %.0f s, in all %.0f s." % (
        len({c.field.name for c in cases}), len(cases), ", ".join(str(n) for n in cases[0].sizes) if not args.node_limit else "per-field",
        ", ".join(skipped) or "none", seconds, total))
    if generic:
        print("fields with generic entries (no entry in ITEMS): " + ", ".join(generic))
    if args.measure == "time":
        print("(wall time of one run: an indication, not a verdict)")
        return 0
    for c, problems in failed:
        print("FAILED: %s: %s" % (c.name, "; ".join(problems)))
    print("%d passed, %d failed" % (len(cases) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
