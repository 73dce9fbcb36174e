#!/usr/bin/env python3
"""The YAML loader against PyYAML, on texts edited one to three characters at a time, and on texts
built from a small grammar (generate.py).

sandgate reads YAML with yaml-cpp 0.7, a YAML 1.2 reader with leniencies of its own; its users
write and read the same files with PyYAML (`yaml.safe_load`, YAML 1.1), and the loader promises
(docs/design.md, "Loading") that a text means the same to both, or is an error. This test holds
it to that on the texts users write: the bundled examples and every input text of the
conformance cases, each edited at random places with the characters YAML gives a meaning to
(a seeded generator: every run sees the same texts); and the forms no example holds (multi-line
quoted values, block scalar indicators, tags and anchors before every kind of value), which
generate.py builds.

For each edited text:
- both read it: the values must be equal, types and key order included (integers, floats, strings
  and booleans are told apart; timestamps stay strings, as the loader keeps them);
- both refuse it: agreed;
- one refuses what the other reads: the disagreement must be one of the KNOWN ones below, each
  with its reason. Anything else fails the test, with the text and both answers.

Usage: run.py --dump build/…/tests/sandgate_yaml_dump [--per-source N] [--generated N] [--seed S] [--show CATEGORY]
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import random
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

try:
    import yaml
except ImportError:  # pragma: no cover - a set-up problem, said plainly
    sys.exit("yaml_oracle: PyYAML is missing; run scripts/install-deps.sh (it installs it into .venv)")

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402 - beside this file


# ---- PyYAML, as a user's `yaml.safe_load` reads a file ------------------------------------------


class _SafeLoader(yaml.SafeLoader):
    """yaml.safe_load's loader (pure Python, YAML 1.1), with two changes that only make the values
    comparable: timestamps stay strings, as sandgate keeps them; and a mapping's keys are taken as
    their text (sandgate's keys are names: `1: x` has the key "1"), after PyYAML has constructed
    them, so that a key PyYAML refuses (an unknown tag, an unhashable list) is still refused."""


_SafeLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(loader: _SafeLoader, node: yaml.MappingNode) -> list[tuple[str, Any]]:
    loader.flatten_mapping(node)  # merge keys, as safe_load applies them
    pairs: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(None, None, "found unhashable key", key_node.start_mark)
        text = key_node.value if isinstance(key_node, yaml.ScalarNode) else repr(key)
        pairs.pop(text, None)  # a repeated key: PyYAML keeps the last value, at its last place
        pairs[text] = loader.construct_object(value_node, deep=True)
    return list(pairs.items())


_SafeLoader.add_constructor("tag:yaml.org,2002:map", lambda loader, node: {"map": _construct_mapping(loader, node)})
# The SDK option classes a mapping may be tagged with (Node::given_as), read as the mapping they hold,
# as the conformance suites decode them; on anything but a mapping PyYAML has no constructor.
for _cls in ("SandboxDefaults", "RegisteredVolumeOptions", "ScratchVolumeOptions", "ResourceOptions"):
    _SafeLoader.add_constructor(
        "!" + _cls,
        lambda loader, node: {"map": _construct_mapping(loader, node)}
        if isinstance(node, yaml.MappingNode)
        else loader.construct_undefined(node),
    )


def pyyaml_reads(text: str) -> tuple[bool, Any]:
    """(True, value) or (False, the error's text)."""
    try:
        return True, yaml.load(text, Loader=_SafeLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as e:
        return False, str(e)
    except Exception as e:  # a constructor's own (`!!int x`; `!!int ""` is an IndexError in PyYAML 6)
        return False, f"{type(e).__name__}: {e}"


def comparable(value: Any, inside: tuple[int, ...] = ()) -> Any:
    """PyYAML's value in the form the dump tool writes sandgate's. A collection that holds itself
    (`&a [*a]`, which PyYAML builds) is marked where it recurs."""
    if id(value) in inside:
        return "<recursive>"
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return {"int": str(value) if -(2**63) <= value < 2**63 else "past int64"}
    if isinstance(value, float):
        return {"float": "nan" if math.isnan(value) else "inf" if value == math.inf else "-inf" if value == -math.inf else value}
    if isinstance(value, dict) and set(value) == {"map"}:
        return {"map": [[k, comparable(v, (*inside, id(value)))] for k, v in value["map"]]}
    if isinstance(value, list):
        return [comparable(v, (*inside, id(value))) for v in value]
    if isinstance(value, (bytes, set)) or not isinstance(value, str):
        return repr(value)  # !!binary, !!set…: never equal to what sandgate gives
    return value


def sandgate_comparable(value: Any) -> Any:
    if isinstance(value, dict) and "float" in value and value["float"] not in ("nan", "inf", "-inf"):
        return {"float": float(value["float"])}
    if isinstance(value, dict) and "map" in value:
        return {"map": [[k, sandgate_comparable(v)] for k, v in value["map"]]}
    if isinstance(value, list):
        return [sandgate_comparable(v) for v in value]
    return value


# ---- the known disagreements ---------------------------------------------------------------------


@dataclass(frozen=True)
class Known:
    name: str
    why: str
    # sandgate refuses, PyYAML reads: every error sandgate reports must match (code, message regex).
    sandgate_error: tuple[str, str] | None = None
    # sandgate reads, PyYAML refuses: PyYAML's error must match, and the text at PyYAML's mark too.
    pyyaml_error: str | None = None
    at_mark: Callable[[str, int], bool] | None = None


KNOWN: list[Known] = [
    # sandgate stricter than PyYAML (docs/design.md, "Loading"): each is an error a user can fix
    # by writing the text the way every reader reads alike.
    Known("empty document", "an empty or comments-only file, or one of properties only (`!!str &x`, "
          "`!!map &x`, which PyYAML reads as \"\" and {}), is SG_EMPTY_DOCUMENT, not a null or empty policy",
          sandgate_error=("SG_EMPTY_DOCUMENT", "")),
    Known("duplicate key", "PyYAML keeps the last value silently; sandgate reports the repeat",
          sandgate_error=("SG_DUPLICATE_KEY", "")),
    Known("merge key", "<< is applied by PyYAML, read differently by yaml-cpp and go-yaml: refused",
          sandgate_error=("SG_YAML_MERGE_KEY", "")),
    Known("tag", "a tag outside the core schema, or a core tag on a form only PyYAML constructs",
          sandgate_error=("SG_YAML_TAG", "")),
    Known("? in a flow value", "yaml-cpp 0.7 ends a plain value inside [ ] or { } at '?'; told to quote it",
          sandgate_error=("SG_SYNTAX", r'has a "\?" inside \[ \] or \{ \}')),
    Known("flow key over two lines", "yaml-cpp 0.7 reads a two-line key inside { } as a value with no key",
          sandgate_error=("SG_SYNTAX", r"a key inside \{ \} runs over more than one line")),
    Known("anchor name", "yaml-cpp takes ':' and other characters into an anchor's name; PyYAML and go-yaml end it",
          sandgate_error=("SG_SYNTAX", r"the (anchor|alias) .* in its name")),
    Known("colon glued to a bracket", "yaml-cpp 0.7 cannot read `{a:{…}}`, which PyYAML reads as a key and its value",
          sandgate_error=("SG_SYNTAX", r"inside \[ \] or \{ \} has a .* right after it")),
    Known("empty key after ?", "a '?' with no key is YAML's null key (PyYAML reads it); sandgate's keys are names",
          sandgate_error=("SG_SYNTAX", r"the key after this '\?' is empty")),
    Known("recursive alias", "an alias inside its own anchor's node (`&a [*a]`): PyYAML builds a value that holds itself",
          sandgate_error=("SG_SYNTAX", "an alias refers to an anchor that is not complete yet")),
    Known("NUL escape", "\\0 (and \\x00…) put a NUL into a value: SG_NUL_BYTE, since C and many tools cut the text there",
          sandgate_error=("SG_NUL_BYTE", "")),
    Known("limits", "nesting past 64 levels or more than 100 aliases (SPEC §1.2's limits)",
          sandgate_error=("SG_DOC_TOO_DEEP|SG_YAML_ALIAS_LIMIT", "")),
    Known("surrogate escape", "YAML has no surrogate pairs; PyYAML keeps lone surrogates, which are not UTF-8",
          sandgate_error=("SG_SYNTAX", r"half of a UTF-16 surrogate pair")),
    Known("? glued in a flow value", "yaml-cpp 0.7 reads `?x#` or `?\"x\"` inside [ ] or { } as neither key nor value",
          sandgate_error=("SG_SYNTAX", r'reads this "\?" inside \[ \] or \{ \} as neither')),
    Known("tag on nothing", "yaml-cpp reads `a: !` as the string \"\" (YAML 1.2), PyYAML as null or an error",
          sandgate_error=("SG_SYNTAX", r"this '!' tags an empty value")),
    Known("value at its key's column", "a value (or its tag or anchor) on the next line must be indented more than its "
          "key; PyYAML reads some such texts, yaml-cpp others", sandgate_error=("SG_SYNTAX", "without being indented more than")),
    Known("'- ' line continuing a plain value", "a plain value's next line, indented, starting with '- ': PyYAML "
          "folds it into the value (\"a - b\"), yaml-cpp refuses the text",
          sandgate_error=("SG_SYNTAX", "end of map not found|end of sequence not found|illegal map value"),
          at_mark=lambda text, i: text[text.rfind("\n", 0, i) + 1 :].lstrip(" ").startswith("- ")),
    Known("collection key", "a list or map used as a key (PyYAML reads a tuple); sandgate's keys are names",
          sandgate_error=("SG_SYNTAX", "an object or list is used as a key")),
    Known("plain value starting with ':'", "YAML 1.2 reads `:x` inside [ ] or { } as a value, PyYAML as a key's ':' "
          "(an empty key, or an error); sandgate refuses it",
          sandgate_error=("SG_SYNTAX", r"a value inside \[ \] or \{ \} starts with ':'")),
    Known("YAML 1.1 line break", "U+0085, U+2028 and U+2029 end a line for PyYAML and go-yaml (YAML 1.1), not for "
          "yaml-cpp (YAML 1.2): refused, as the text would be two documents",
          sandgate_error=("SG_SYNTAX", "a line break to YAML 1.1 readers")),
    # YAML 1.2, which yaml-cpp reads, allows what PyYAML's YAML 1.1 scanner refuses; the text means
    # one thing to every reader that reads it at all.
    Known("tab", "YAML 1.2 allows a tab inside a plain value and as separating white space; PyYAML refuses it",
          pyyaml_error=r"found character '\\t' that cannot start any token|expected chomping or indentation indicators, but found '\\t'|expected ' ', but found '\\t'",
          at_mark=lambda text, i: i < len(text) and text[i] == "\t"),
    Known("directive name", "yaml-cpp skips a directive it does not know before `---`, whatever its name; PyYAML "
          "refuses a name that is not letters and digits. Nothing of the document is in it",
          pyyaml_error=r"while scanning a directive",
          at_mark=lambda text, i: text[text.rfind("\n", 0, i) + 1 : i + 1].startswith("%")),
    Known("byte order mark inside", "U+FEFF after the text's start: YAML allows it only there; yaml-cpp ends a tag at "
          "it, PyYAML refuses it in one and reads it elsewhere",
          sandgate_error=("SG_SYNTAX", r"the text holds U\+FEFF")),
    Known("'>' block ending the text in spaces", "yaml-cpp 0.7 folds a last line of spaces without a line break into a "
          "`>` block as a space; refused, with the fix",
          sandgate_error=("SG_SYNTAX", r"this '>' block ends the text with a line of spaces")),
    Known("'>' block with '+' and a digit", "yaml-cpp 0.7 ends a `>+` block one line break short when empty lines close "
          "it; counted from the text where the indentation is detected, refused where a digit sets it",
          sandgate_error=("SG_SYNTAX", r"this '>' block has both '\+' and an indentation digit"),
          at_mark=lambda text, at: text[at : at + 1] == ">"),
    Known("tag or anchor after '- ' sets the indentation", "yaml-cpp 0.7 needs the next lines of a value that starts with "
          "a tag or anchor after `- `, `? ` or `: ` to stand right of that tag; told how far to indent them",
          sandgate_error=("SG_SYNTAX", r"whose (anchor|tag) yaml-cpp reads as setting the value's indentation")),
    Known("block indentation digit after a tag or anchor", "`- &a |2`: yaml-cpp 0.7 counts the digit from the anchor's "
          "column, other readers from the '-': refused, as the values differ",
          sandgate_error=("SG_SYNTAX", r"this block's indentation digit counts from the column of the tag or anchor")),
    Known("'=' or '<<' as a value", "PyYAML resolves a plain `=` or `<<` to YAML 1.1's value or merge type and has no "
          "constructor for either outside a key; yaml-cpp and go-yaml read the string",
          pyyaml_error=r"could not determine a constructor for the tag 'tag:yaml.org,2002:(value|merge)'"),
    Known("comment glued to a block scalar header", "yaml-cpp reads `|#…` as `| #…`; YAML needs the space, PyYAML refuses it",
          pyyaml_error=r"expected chomping or indentation indicators, but found '#'"),
]


def offset_of(text: str, line: int, column: int) -> int:
    """The character offset of a 1-based line and column (PyYAML's and sandgate's marks), in the
    text without its byte order mark, which neither counts."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
    return start + column - 1


def classify(text: str, py_ok: bool, py: Any, sg: dict[str, Any]) -> str:
    text = text.removeprefix("\ufeff")  # for the marks: neither reader counts the byte order mark
    sg_ok = sg["loaded"] and not sg["errors"]
    if py_ok and sg_ok:
        return "agree: read" if comparable(py) == sandgate_comparable(sg["value"]) else "READ DIFFERENTLY"
    if not py_ok and not sg_ok:
        return "agree: refused"
    if py_ok:
        # Every error sandgate reports must be a known strictness (one text may hold two).
        def covering(code: str, line: int, column: int, message: str) -> Known | None:
            for k in KNOWN:
                if (k.sandgate_error and re.fullmatch(k.sandgate_error[0], code) and re.search(k.sandgate_error[1], message)
                        and (k.at_mark is None or k.at_mark(text, offset_of(text, line, column)))
                        and (k.name != "empty document" or py in (None, "", [], {"map": []}))):
                    return k
            return None
        known = [covering(*error) for error in sg["errors"]]
        if known and all(known):
            return "known: " + known[0].name  # type: ignore[union-attr]
        return "SANDGATE REFUSES WHAT PYYAML READS"
    marks = re.findall(r"line (\d+), column (\d+)", py)  # the problem's mark is the last
    for k in KNOWN:
        if k.pyyaml_error and re.search(k.pyyaml_error, py):
            if marks and k.at_mark and not k.at_mark(text, offset_of(text, int(marks[-1][0]), int(marks[-1][1]))):
                continue
            return "known: " + k.name
    return "SANDGATE READS WHAT PYYAML REFUSES"


# ---- the texts -----------------------------------------------------------------------------------


def source_texts() -> list[tuple[str, str]]:
    """(where, text): every example file, and every input text of a conformance case."""
    out = [(str(p.relative_to(REPO)), p.read_text()) for p in sorted(REPO.glob("examples/**/*.yaml"))]
    for path in sorted(REPO.glob("tests/conformance/**/*.yaml")):
        doc = yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        for case in doc.get("cases", []) if isinstance(doc, dict) else []:
            for key, value in case.items():
                if key != "name" and isinstance(value, str):
                    out.append((f"{path.relative_to(REPO)}: {case.get('name')}.{key}", value))
    return out


# Characters YAML gives a meaning to, and a few ordinary ones.
ALPHABET = list(" \n:-#'\"[]{},&*!|>?%@\t.~\\") + list("ab0Z")


def edit(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        roll = rng.random()
        c = rng.choice(ALPHABET)
        if roll < 0.4:
            text = text[:i] + c + text[i:]
        elif roll < 0.7:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + c + text[i + 1 :]
    return text


def sandgate_reads(dump: str, texts: list[str]) -> list[dict[str, Any]]:
    data = b"".join(b"%d\n%s" % (len(t), t) for t in (s.encode() for s in texts))
    done = subprocess.run([dump], input=data, capture_output=True, check=True, timeout=600)
    # split("\n"), not splitlines(): a value may hold U+0085 or U+2028, which splitlines() breaks at.
    return [json.loads(line) for line in done.stdout.decode().split("\n") if line]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dump", required=True, help="the sandgate_yaml_dump program")
    ap.add_argument("--per-source", type=int, default=17, help="edited texts per source (default 17: ~30,000 in all)")
    ap.add_argument("--generated", type=int, default=10000, help="texts built by generate.py (default 10,000)")
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--show", default="", help="print the texts of categories containing this")
    args = ap.parse_args()

    sources = source_texts()
    # Each source is edited by its own generator, seeded by its name: a conformance case added later
    # adds its own edited texts and leaves every other source's texts as they were.
    per_source = args.per_source
    picked, texts = [], []
    for where, text in sources:
        rng = random.Random(f"{args.seed}:{where}")
        for _ in range(per_source):
            picked.append((f"edited from {where}", text))
            texts.append(edit(text, rng))
    for i, text in enumerate(generate.texts(args.seed, args.generated)):
        picked.append((f"generate.py, text {i}", ""))
        texts.append(text)
    answers = sandgate_reads(args.dump, texts)
    if len(answers) != len(texts):
        print(f"yaml_oracle: {len(texts)} texts sent, {len(answers)} answers", file=sys.stderr)
        return 1

    counts: Counter[str] = Counter()
    failures = []
    for (where, _), text, sg in zip(picked, texts, answers):
        py_ok, py = pyyaml_reads(text)
        category = classify(text, py_ok, py, sg)
        counts[category] += 1
        if category.isupper() or (args.show and args.show in category):
            failures.append((category, where, text, py_ok, py, sg))

    print(f"yaml_oracle: {len(texts)} texts: {per_source} edited from each of {len(sources)} sources, "
          f"{args.generated} generated (seed {args.seed})")
    for category, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:6}  {category}")
    shown = 0
    for category, where, text, py_ok, py, sg in failures:
        if shown == 20:
            break
        shown += 1
        print(f"\n--- {category} ({where})\n{text}")
        print("PyYAML:", json.dumps(comparable(py)) if py_ok else py.replace("\n", " | "))
        print("sandgate:", json.dumps(sg["value"]) if sg["loaded"] and not sg["errors"] else sg["errors"])
    bad = sum(n for c, n in counts.items() if c.isupper())
    if bad:
        print(f"\nyaml_oracle: {bad} disagreements that no known difference explains", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
