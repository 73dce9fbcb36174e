#!/usr/bin/env python3
"""Writes the libFuzzer dictionaries fuzz/dict/*.dict (stdlib only).

Field names come from schema/*.json (every `properties` key, in snake_case and lowerCamelCase),
enum values from the schemas' `enum` lists; the rest (legacy aliases, removed keys, enum spellings
the engine accepts, quantity suffixes, annotation prefixes, Kubernetes `base` fields, YAML and JSON
syntax) is listed below. The .dict files are committed; run this again after a schema change:

    python3 fuzz/make_dicts.py && git diff fuzz/dict
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "dict"

LEGACY_ALIASES = ["deny_dns", "dns_name", "dns_name_except"]
REMOVED_KEYS = ["profile_ids", "profile_names", "s3_mount"]
OLD_NETWORK = ["ports", "container_port", "ingress_mode", "exposed_ports", "egress_mode"]
ENUM_WORDS = [
    "serverless", "cks", "SANDBOX_MODE_SERVERLESS", "SANDBOX_MODE_CKS", "SERVERLESS", "CKS",
    "strict", "cks_then_serverless", "serverless_then_cks",
    "STORAGE_MEDIUM_MEMORY", "STORAGE_MEDIUM_DISK", "STORAGE_MEDIUM_UNSPECIFIED", "memory", "disk",
    "TENANT_SCOPE_SAME_ORG", "TENANT_SCOPE_SAME_USER", "TENANT_SCOPE_SANDBOX_NETWORK",
    "TCP", "UDP", "SCTP", "public", "internal", "internet", "isolated", "org", "user",
    "RuntimeDefault", "Unconfined", "Localhost", "kata-qemu", "runc", "nvidia", "cw-kata-nvidia-gpu",
    "<node-default>", "python", "typescript", "H100", "A100", "h100",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition", "Guaranteed", "Burstable", "BestEffort",
]
ANNOTATION_PREFIXES = [
    "sunk.coreweave.com/", "sunk.coreweave.com/partition", "sunk.coreweave.com/account",
    "sunk.coreweave.com/qos", "sunk.coreweave.com/constraint", "sunk.coreweave.com/user-id",
    "sunk.coreweave.com/group-id", "sunk.coreweave.com/exclusive", "coreweave.com/",
    "kubernetes.io/", "k8s.io/", "example.com/", "tenant-slurm-slurm-scheduler", "slurm",
    "docker.io/", "index.docker.io/", "ghcr.io/acme", "*.example.com", "*",
]
K8S_BASE = [
    "spec", "metadata", "annotations", "labels", "affinity", "securityContext", "containers",
    "runtimeClassName", "initContainers", "terminationGracePeriodSeconds", "nodeSelector",
    "schedulerName", "tolerations", "privileged",
]
# What a user copies from a pod spec or a Dockerfile, and the spellings the hints rewrite.
OTHER_TOOLS = ["nvidia.com/gpu", "env", "imagePullSecrets", "workdir", "entrypoint", "cmd", "valueFrom",
               "https://", "docker://", "@sha256:", "A=b", "10.0.0.0/8", "pypi.org", "localhost:5000"]
QUANTITY_SUFFIXES = ["m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u"]
QUANTITY_TOKENS = QUANTITY_SUFFIXES + [
    "e", "E", "e3", "e-3", "E+30", "e31", "e-31", ".", "+", "-", " ", "\t", "0", "1", "9",
    "1.5", "0.1", "100m", "1Gi", "1536Mi", "2E6024865272343", "1e4294967297",
    "9223372036854775807", "9223372036854775808", "18446744073709551616", "%", "25%", "100%",
]
NUMBERS = [
    "0", "-1", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "18446744073709551616", "2592000", "2592001",
    "65535", "65536", "1e3", "1.0", "1.", ".5", "0x1F", "0o17", "017", "0b101", "1_000", "1:30",
]
YAML_WORDS = ["true", "false", "yes", "no", "on", "off", "Yes", "ON", "null", "~", "Null",
              ".inf", "-.inf", ".nan", ".NaN"]
YAML_SYNTAX = [
    ": ", "- ", "---", "...", "|", "|-", "|+", ">", ">-", "&a ", "*a", "<<: ", "!!str ", "!!int ",
    "!!float ", "!!bool ", "!!null ", "!!map", "!!seq", "!!binary ", "!custom ", "!<tag:yaml.org,2002:str> ",
    "!SandboxDefaults ", "!RegisteredVolumeOptions ", "!ScratchVolumeOptions ", "!ResourceOptions ",
    "%YAML 1.2", "%TAG ! tag:example.com,2000:", "? ", "{", "}", "[", "]", ",", "#", "'", "\"", "\\u0000",
    "\\x41", "\n", "\r\n", "\t", "\n  ", "\n    ", "\xef\xbb\xbf", "\xc3\x28", "\xe2\x80\x8b", "\xef\xbc\x8f",
]
JSON_SYNTAX = ["{", "}", "[", "]", ":", ",", "\"", "\\\"", "\\u0000", "\\ud800", "\\/", "null", "true",
               "false", "NaN", "Infinity", "-Infinity", "1e400", "-0", "1E-400", "\xef\xbb\xbf"]
CHECK_SEPARATOR = "\n%%\n"


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def schema_words(name: str) -> tuple[list[str], list[str]]:
    keys, enums = set(), set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "properties" and isinstance(v, dict):
                    keys.update(v)
                if k == "enum" and isinstance(v, list):
                    enums.update(str(e) for e in v if e is not None)
                walk(v)
        elif isinstance(x, list):
            for i in x:
                walk(i)

    walk(json.loads((ROOT / "schema" / f"{name}.schema.json").read_text()))
    return sorted(keys), sorted(enums)


def with_camel(keys: list[str]) -> list[str]:
    out = []
    for k in keys:
        out.append(k)
        if camel(k) != k:
            out.append(camel(k))
    return out


def escape(token: str) -> str:
    out = []
    for b in token.encode("utf-8"):
        c = chr(b)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append(f"\\x{b:02X}")
    return '"' + "".join(out) + '"'


def write(name: str, header: str, groups: dict[str, list[str]]) -> None:
    seen: set[str] = set()
    lines = [f"# {header}", "# Generated by fuzz/make_dicts.py; edit that script, not this file.", ""]
    for title, tokens in groups.items():
        lines.append(f"# {title}")
        for t in tokens:
            if t and t not in seen:
                seen.add(t)
                lines.append(escape(t))
        lines.append("")
    (OUT / name).write_text("\n".join(lines))
    print(f"make_dicts: {name}: {len(seen)} tokens")


def main() -> None:
    # No options; --help says what it does instead of doing it.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    pkeys, penums = schema_words("policy")
    skeys, senums = schema_words("sandbox")
    rkeys, renums = schema_words("runners")
    okeys, _ = schema_words("org")
    policy_keys = with_camel(pkeys + LEGACY_ALIASES) + ["policy", "etag"]
    sandbox_keys = with_camel(skeys + REMOVED_KEYS + OLD_NETWORK)
    yaml_keys = lambda keys: [k + ": " for k in keys] + keys
    json_keys = lambda keys: [f'"{k}":' for k in keys]

    write("policy_yaml.dict", "fuzz_policy_yaml: runner policies as YAML", {
        "policy fields (snake_case and lowerCamelCase), legacy aliases": yaml_keys(policy_keys),
        "Kubernetes fields inside base": yaml_keys(K8S_BASE),
        "other tools' names and spellings": OTHER_TOOLS,
        "enum values": penums + ENUM_WORDS,
        "annotation prefixes, registries, schedulers": ANNOTATION_PREFIXES,
        "quantity suffixes": QUANTITY_TOKENS,
        "numbers at the limits": NUMBERS,
        "YAML 1.1 words": YAML_WORDS,
        "YAML syntax": YAML_SYNTAX,
    })
    write("policy_json.dict", "fuzz_policy_json: runner policies as JSON", {
        "policy fields (snake_case and lowerCamelCase), legacy aliases": json_keys(policy_keys),
        "Kubernetes fields inside base": json_keys(K8S_BASE),
        "other tools' names and spellings": [f'"{w}"' for w in OTHER_TOOLS],
        "enum values": [f'"{e}"' for e in penums + ENUM_WORDS],
        "annotation prefixes, registries, schedulers": [f'"{a}"' for a in ANNOTATION_PREFIXES],
        "quantities": [f'"{q}"' for q in QUANTITY_TOKENS] + QUANTITY_SUFFIXES,
        "numbers at the limits": NUMBERS,
        "JSON syntax": JSON_SYNTAX,
    })
    write("sandbox.dict", "fuzz_sandbox: sandbox requests (Sandbox.run() keyword arguments) as YAML or JSON", {
        "sandbox fields (snake_case and camelCase), removed keys, documented older fields": yaml_keys(sandbox_keys),
        "the same as JSON keys": json_keys(sandbox_keys),
        "other tools' names and spellings": OTHER_TOOLS,
        "enum values": senums + ENUM_WORDS,
        "annotation prefixes, registries, runners": ANNOTATION_PREFIXES + ["prod-us-east-1", "slurm-1", "locked"],
        "quantity suffixes": QUANTITY_TOKENS,
        "numbers at the limits": NUMBERS,
        "YAML 1.1 words": YAML_WORDS,
        "YAML syntax": YAML_SYNTAX,
        "JSON syntax": JSON_SYNTAX,
    })
    write("quantity.dict", "fuzz_quantity: quantity strings (SDK and Kubernetes grammars)", {
        "suffixes, exponents, signs, limits": QUANTITY_TOKENS,
    })
    write("check.dict", "fuzz_check: <flags byte>POLICY\\n%%\\nSANDBOX[\\n%%\\nDEFAULTS[\\n%%\\nOVERRIDES]]", {
        "the separator of fuzz_check.cpp": [CHECK_SEPARATOR],
        "policy fields": yaml_keys(policy_keys),
        "sandbox fields": yaml_keys(sandbox_keys),
        "runner and org fields": yaml_keys(with_camel(rkeys + okeys)),
        "Kubernetes fields inside base": yaml_keys(K8S_BASE),
        "other tools' names and spellings": OTHER_TOOLS,
        "enum values": penums + senums + renums + ENUM_WORDS,
        "annotation prefixes, registries, schedulers, runners": ANNOTATION_PREFIXES + ["prod-us-east-1", "slurm-1", "locked"],
        "quantity suffixes": QUANTITY_TOKENS,
        "numbers at the limits": NUMBERS,
        "YAML 1.1 words": YAML_WORDS,
        "YAML syntax": YAML_SYNTAX,
    })


if __name__ == "__main__":
    main()
