"""Type aliases for what sandgate accepts (kept in one place so the stubs and docs agree)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol, TypedDict, Union


class DataclassInstance(Protocol):
    """Any dataclass instance, e.g. the SDK's ``SandboxDefaults`` or ``ResourceOptions``."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


#: A value sandgate reads: a Mapping (dict, OmegaConf ``DictConfig``, …), a dataclass instance,
#: YAML or JSON text (``str`` or ``bytes``), or a file (``os.PathLike``, or a ``str`` path: see
#: docs/python.md, "Input kinds"). ``None`` means "not given".
InputValue = Union[Mapping[str, Any], DataclassInstance, str, bytes, "os.PathLike[str]", None]
#: Runners may also be given as the bare list of runner entries.
RunnersValue = Union[InputValue, Sequence[Mapping[str, Any]]]

Client = Literal["python", "typescript"]
Placement = Literal["serverless", "cks"]
Severity = Literal["error", "warning", "info"]
Grammar = Literal["sdk", "kubernetes"]
DiffClass = Literal[
    "newly_rejected", "newly_accepted", "rejection_changed", "resolution_changed", "unchanged", "unreadable"
]
StaticChangeKind = Literal["changed", "added", "removed", "reordered"]


class GpuInfo(TypedDict, total=False):
    """``Result.gpu``: the GPU request as resolved."""

    count: int
    type: str
    memory_gb: int
    eligible_types: list[str]


# "from" is a keyword, hence the functional form.
RuntimeClassInfo = TypedDict("RuntimeClassInfo", {"value": str, "from": str})


class CodeRow(TypedDict):
    """One row of the codes table (``sandgate.codes()``)."""

    code: str
    rule: str
    severity: Severity
    reason: str | None
    grpc_code: str | None
    python_exception: str | None
    js_exception: str | None
    side: str
    summary: str
