"""The Python result follows the one table of result and diagnostic fields
(core/include/sandgate/result_shape.def): the Diagnostic class has its rows as fields, in order,
and ``Result.to_dict()`` is exactly the C++ JSON writer's object, ``related`` locations included."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import sandgate

ROOT = Path(__file__).resolve().parents[3]


def _table() -> dict[str, list[str]]:
    spec = importlib.util.spec_from_file_location("gen_result_shape", ROOT / "scripts" / "gen_result_shape.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return {kind: [row[0] for row in rows] for kind, rows in gen.read_table().items()}


POLICY = 'constraints:\n  resources:\n    max_cpu: "2"\n'


def test_diagnostic_fields_are_the_table_rows() -> None:
    table = _table()
    assert [f.name for f in dataclasses.fields(sandgate.Diagnostic)] == table["DIAGNOSTIC"]
    assert list(sandgate.RelatedLocation._fields) == table["RELATED"]
    assert list(sandgate.SourceLocation._fields) == table["SOURCE"]


def test_result_to_dict_is_the_json_writers_object() -> None:
    r = sandgate.check("resources: {cpu: '4', memory: 1Gi}\n", policy=POLICY)
    as_dict = r.to_dict()
    assert list(as_dict) == _table()["RESULT"]
    assert as_dict == json.loads(r.to_json(False))


def test_related_locations_reach_python() -> None:
    r = sandgate.check("resources: {cpu: '4', memory: 1Gi}\n", policy=POLICY)
    (d,) = [d for d in r.errors if d.code == "SG_RESOURCE_ABOVE_MAX"]
    (rel,) = d.related
    assert rel == sandgate.RelatedLocation(
        "policy", "/constraints/resources/max_cpu", sandgate.SourceLocation("<policy>", 3, 14), "the limit is set here"
    )
    assert d.to_dict()["related"] == [
        {"input": "policy", "path": "/constraints/resources/max_cpu",
         "source": {"file": "<policy>", "line": 3, "column": 14}, "message": "the limit is set here"}
    ]


def test_an_unread_layer_gives_ok_and_diagnostics_only() -> None:
    r = sandgate.check("resources: [\n")
    assert list(r.to_dict()) == ["ok", "diagnostics"]
    assert r.to_dict() == json.loads(r.to_json(False))
    # The absent members as Python reads them (docs/python.md): empty collections, else None.
    assert (r.resolved, r.provenance, r.rules_applied, r.other_candidates) == ({}, {}, {}, [])
    assert [r.placement_mode, r.qos_class, r.runner, r.gpu, r.runtime_class, r.slurm] == [None] * 6


def test_each_access_to_resolved_is_a_fresh_copy_and_to_dict_agrees_with_to_json() -> None:
    # resolved was a cache shared by every access and by to_dict(): changing it changed to_dict()
    # but not to_json(), so the two described different results.
    r = sandgate.check({"resources": {"cpu": "2", "memory": "4Gi"}})
    r.resolved["resources"]["requests"]["cpu"] = "999"
    r.resolved["extra"] = 1
    assert r.resolved["resources"]["requests"]["cpu"] == "2" and "extra" not in r.resolved
    assert r.resolved is not r.resolved
    d = r.to_dict()
    d["resolved"]["resources"]["requests"]["cpu"] = "998"
    assert r.to_dict()["resolved"] == json.loads(r.to_json())["resolved"]


def test_a_result_that_is_not_a_check_has_an_empty_resolved() -> None:
    for r in (sandgate.validate_policy({}), sandgate.check({"resources": {"cpu": "1"}}, policy="constraints: [\n")):
        assert r.resolved == {} and isinstance(r.resolved, dict)
        assert r.placement_mode is None and r.qos_class is None and r.runner is None
