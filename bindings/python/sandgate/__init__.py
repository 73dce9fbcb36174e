"""sandgate: check a CoreWeave sandbox request against a runner policy before it is sent.

    import sandgate
    policy = sandgate.Policy.load("policy.yaml")
    result = sandgate.check({"resources": {"cpu": "2", "memory": "4Gi"}}, policy=policy)
    result.raise_for_errors()      # if it has errors: raises SandboxValidationError, ValueError, … as the SDK would

Importing sandgate never imports cwsandbox; ``sandgate.presubmit.install(...)`` hooks it.
"""

from __future__ import annotations

from . import exceptions, presubmit
from ._api import (
    ExceptionClasses,
    check,
    codes,
    exception_ancestors,
    exception_for,
    is_spill_eligible,
    normalize_resources,
    validate_policy,
)
from ._diagnostics import Diagnostic, RelatedLocation, SourceLocation
from ._many import PolicyDiff, RecordDiff, StaticChange, ValueChange, check_many, diff_policies
from ._policy import Org, Policy, Runners
from ._quantity import Quantity, parse_quantity
from ._result import Result
from ._sandgate import __version__
from .exceptions import SandgateError, SandgateTypeError, SandgateValueError, SandgateWarning

__all__ = [
    "Diagnostic",
    "ExceptionClasses",
    "Org",
    "Policy",
    "PolicyDiff",
    "Quantity",
    "RecordDiff",
    "RelatedLocation",
    "Result",
    "Runners",
    "SandgateError",
    "SandgateTypeError",
    "SandgateValueError",
    "SandgateWarning",
    "SourceLocation",
    "StaticChange",
    "ValueChange",
    "__version__",
    "check",
    "check_many",
    "codes",
    "diff_policies",
    "exception_ancestors",
    "exception_for",
    "exceptions",
    "is_spill_eligible",
    "normalize_resources",
    "parse_quantity",
    "presubmit",
    "validate_policy",
]
