"""Hypothesis strategies for cwsandbox 1.22 ``Sandbox.run`` keyword arguments.

A request is built from keyword *families*. Each family has a ``valid`` strategy (values that
both the SDK and the server accept with no policy, whatever else the request holds) and a ``wild``
strategy (valid and edge values, values only the server refuses, values the SDK refuses, wrong
types, and the SDK's option dataclasses built from them). A case draws a random set of families
with valid values and at most one *focus* family with a wild value, so that a disagreement points
at the family that caused it. Values that are SDK option dataclasses are ``DC`` markers, built at
run time (their constructors are part of the SDK's client-side path).

A wild value that docs/sdk-differences.md lists as a deliberate difference is drawn through
``known``/``KS``/``drew_known``, which marks the case (``Case.known``): ``reference_cases`` leaves
those cases out (README.md, "Two runs").
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import diff_valid as V
from diff_oracle import DC, SANDBOX_DEFAULTS_FIELDS, Case
from diff_valid import CPU_LADDER, FAMILY_VALID, IMAGES, MEM_LADDER, VALID_PORTS, G

# Strategies built inside composite functions are built on every draw, and Hypothesis validates
# each new one: cache them, so a case costs its draws only.
_CACHE: dict[Any, st.SearchStrategy[Any]] = {}


def _cached(key: Any, make: Any) -> st.SearchStrategy[Any]:
    hit = _CACHE.get(key)
    if hit is None:
        hit = _CACHE[key] = make()
    return hit


def S(xs: Any) -> st.SearchStrategy[Any]:
    xs = list(xs)
    return _cached(("S", repr(xs)), lambda: st.sampled_from(xs))


def ONE_OF(*parts: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # the parts are kept in the key, so their ids cannot be reused by other objects
    return _cached(("one_of", tuple(id(p) for p in parts), parts), lambda: st.one_of(*parts))


def LISTS(elements: st.SearchStrategy[Any], **kw: Any) -> st.SearchStrategy[Any]:
    return _cached(("lists", id(elements), elements, tuple(sorted(kw.items()))), lambda: st.lists(elements, **kw))


def INTS(lo: int, hi: int) -> st.SearchStrategy[int]:
    return _cached(("ints", lo, hi), lambda: st.integers(lo, hi))


BOOL = st.booleans()


def seeded(fn: Any, *args: Any) -> st.SearchStrategy[Any]:
    """A valid value from diff_valid, built from one seed Hypothesis draws."""
    return _cached(("seeded", fn, args), lambda: INTS(0, 2**32 - 1).map(lambda seed: fn(G(seed), *args)))


# Values of a *known difference*: the ones docs/sdk-differences.md lists, where the SDK lets through
# what the server refuses, a SPEC rule is stricter than the SDK, or the SDK does not look at the type.
# A case that draws one is marked (Case.known); the reference run leaves such cases out, so that its
# agreement measures the SDK's own checks, and the whole-surface run keeps them, each of its
# disagreements explained by the list (tests/differential/README.md, "Two runs").
_DREW_KNOWN = [False]


def _mark_known(value: Any) -> Any:
    _DREW_KNOWN[0] = True
    return value


def known(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return _cached(("known", id(strategy), strategy), lambda: strategy.map(_mark_known))


def drew_known() -> None:
    """Marks the case being drawn (inside a composite, when what it drew is a known difference)."""
    _DREW_KNOWN[0] = True


def KS(xs: Any) -> st.SearchStrategy[Any]:
    """S(xs), each a value of a known difference."""
    return known(S(xs))


# A value of a type no field wants (None is left out: it means "not given").
# (bytes are left out: sandgate reads bytes as UTF-8 text by design, docs/python.md "Input kinds")
# cwsandbox checks the type of few keywords: most wrong types are sent, dropped as "not set" or fail
# by accident inside it (docs/sdk-differences.md §3), so WRONG is a known difference; WRONG_CHECKED
# is the same values where the SDK does check the type itself (tags).
WRONG_VALUES = [1, -3, 2.5, True, False, [], {}, ("t",), float("nan")]
WRONG_CHECKED = S(WRONG_VALUES)
WRONG = known(WRONG_CHECKED)


def mix(valid: st.SearchStrategy[Any], *bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return ONE_OF(valid, *bad)


def maybe_dc(name: str, fields: st.SearchStrategy[dict[str, Any]], p_dc: float = 0.35) -> st.SearchStrategy[Any]:
    """The fields as a dict, or as the SDK's dataclass of that name."""
    return ONE_OF(fields, fields.map(lambda f: DC(name, **f))) if p_dc else fields


def optional_fields(**parts: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A dict with a random subset of the given keys."""
    return st.fixed_dictionaries({}, optional=parts)


def unique_list(elements: list[Any], min_size: int = 1, max_size: int = 3) -> st.SearchStrategy[list[Any]]:
    return LISTS(S(elements), min_size=min_size, max_size=max_size, unique=True)


# ---- quantities ----------------------------------------------------------------------------------

BAD_QUANTITIES = [
    "", "  ", "-1", "1K", "1e3Gi", "abc", "1.2.3", "m", "Ki", "1gi", "1E", "1Ei", "10E", "1e3", " 2 ", "0", "0.0001",
    "1.5Gi", "+1", "1e-3", ".5", "5.", "1_000",
]
LONG_QUANTITIES = ["1" * 70, "2E6024865272343", "9" * 30 + "Ei"]  # quantity-limits: Decimal takes them
QUANTITY = mix(S(CPU_LADDER + MEM_LADDER), S(BAD_QUANTITIES), KS(LONG_QUANTITIES), WRONG)


@st.composite
def ordered_pair(draw: Any, ladder: list[str]) -> tuple[str, str]:
    i = draw(INTS(0, len(ladder) - 1))
    j = draw(INTS(i, len(ladder) - 1))
    return ladder[i], ladder[j]




RESOURCE_OPTION_FIELDS = st.fixed_dictionaries({}, optional={
    "requests": st.one_of(st.just({}), st.fixed_dictionaries({"cpu": QUANTITY})),
    "limits": st.one_of(st.just({}), st.fixed_dictionaries({"memory": QUANTITY})),
})


@st.composite
def wild_resources(draw: Any) -> Any:
    kind = draw(S(["valid", "burstable", "bad-value", "none", "shape", "key", "empty-side", "order", "type", "dataclass"]))
    if kind == "valid":
        return draw(seeded(V.resources))
    if kind == "burstable":
        key = draw(S(["cpu", "memory"]))
        lo, hi = draw(ordered_pair(CPU_LADDER if key == "cpu" else MEM_LADDER))
        drew_known()  # serverless-burstable: the server refuses requests != limits on serverless
        return {"requests": {key: lo}, "limits": {key: hi}}
    if kind == "bad-value":
        where = draw(S(["flat", "requests", "limits"]))
        key = draw(S(["cpu", "memory"]))
        value = draw(QUANTITY)
        if where != "flat":
            drew_known()  # one side only: serverless-burstable when the value is a quantity
        return {key: value} if where == "flat" else {where: {key: value}}
    if kind == "none":
        # A None cpu or memory: a TypeError where cwsandbox compares request and limit (the key on
        # both sides, after the flat copy or the one-side fill), left out where it does not.
        key, other = draw(S([("cpu", "memory"), ("memory", "cpu")]))
        return draw(S([{key: None}, {key: None, other: "1"}, {"requests": {key: None}}, {"limits": {key: None}},
                       {"requests": {key: "1"}, "limits": {key: None}}, {"requests": {key: None}, "limits": {}},
                       {"requests": {key: None, other: "1"}, "limits": {other: "1"}}, {"requests": None, "limits": {key: None}}]))
    if kind == "shape":
        return draw(S([{}, {"foo": "1"}, {"cpu": "1", "requests": {"cpu": "1"}}, {"gpu": {}}, {"requests": None},
                       {"limits": None, "cpu": "1"}, {"requests": {"cpu": "1"}, "foo": 1}, {"Requests": {"cpu": "1"}}])
                    # a side that is not a mapping: unchecked-types, incidental-sdk-messages
                    | KS([{"requests": "1"}, {"requests": {"cpu": "1"}, "limits": "2"}, {"requests": []}]))
    if kind == "key":
        return draw(S([{"requests": {"gpu": "1"}}, {"limits": {"storage": "1Gi"}}, {"requests": {"CPU": "1"}},
                       {"cpu": "1", "storage": "1Gi"}, {"requests": {"cpu": "1"}, "limits": {"mem": "1Gi"}}]))
    if kind == "empty-side":
        return draw(S([{"requests": {}}, {"limits": {}}, {"requests": {}, "limits": {}},
                       {"requests": {}, "limits": {"cpu": "1"}}, {"requests": {"memory": "1Gi"}, "limits": {}}]))
    if kind == "order":
        key = draw(S(["cpu", "memory"]))
        lo, hi = draw(ordered_pair(CPU_LADDER if key == "cpu" else MEM_LADDER))
        return {"requests": {key: hi}, "limits": {key: lo}}
    if kind == "type":
        return draw(ONE_OF(WRONG, S(["2", ["cpu"]])))
    fields = draw(RESOURCE_OPTION_FIELDS)
    drew_known()  # resource-options-unchecked: normalize_resources uses a ResourceOptions as it is
    return DC("ResourceOptions", **fields)


# ---- GPU (owns resources and placement_mode) -------------------------------------------------------





@st.composite
def wild_gpu(draw: Any) -> dict[str, Any]:
    kind = draw(S(["valid", "value", "serverless", "form"]))
    if kind == "valid":
        return draw(seeded(V.gpu))
    if kind == "value":
        gpu = draw(ONE_OF(
            S([0, -1, "1", 1.0, True, {}, {"count": 0}, {"count": True}, {"count": "2"}, {"count": 1.5},
               {"type": 1}, {"memory_gb": 0}, {"memory_gb": "80"}, {"foo": 1}, {"count": 1, "foo": 1},
               {"type": "H100"}, {"count": 2**63}, None, [1]]),
            # gpu-type-and-memory, gpu-dict-values
            KS([{"count": 1, "type": "H100", "memory_gb": 80}, {"type": ""}]),
        ))
        return {"resources": {"cpu": "1", "gpu": gpu}, "placement_mode": "cks"}
    if kind == "serverless":
        drew_known()  # gpu-server: what serverless offers is the server's to say
        gpu = draw(S([{"count": 2}, {"count": 1, "type": "H100"}, {"count": 1, "memory_gb": 200},
                      {"count": 1, "type": "NVIDIA RTX PRO 6000 Blackwell Server Edition"}, 3]))
        return {"resources": {"cpu": "1", "gpu": gpu}}
    # the shorthand where the SDK does not expand it (gpu-nested-shorthand)
    return draw(ONE_OF(KS([{"resources": {"requests": {"cpu": "1"}, "gpu": 1}, "placement_mode": "cks"},
                           {"resources": {"gpu": 2}, "placement_mode": "cks"}]), S([
                   {"resources": {"limits": {"memory": "1Gi"}, "gpu": {"count": 1, "type": "h100"}}, "placement_mode": "cks"}])))


# ---- image, command, working directory -----------------------------------------------------------



wild_image = optional_fields(
    container_image=mix(S(IMAGES), S(["", " "]), WRONG),
    command=mix(S(["python", ""]), WRONG),
    args=mix(LISTS(S(["-c", "x"]), max_size=2), LISTS(ONE_OF(S(["a"]), WRONG), min_size=1, max_size=2)),
    working_dir=mix(S(["/app", "", "rel/dir", "/", "/a/../b"]), WRONG),
)


# ---- network -------------------------------------------------------------------------------------









BAD_HOSTS = ["", "*", "*.*.x.com", "foo_bar.com", "HOST.Example.COM", " pypi.org ", "a" * 254, "*x.org", "foo.*.com",
             "host:443", "trailing.", "-lead.com", "1.2.3.4", "xn--bcher-kva.example", "a..b", "*." + "a" * 250]
BAD_PORTS = [[0], [70000], [-1], ["80"], [True], [{"port": 80, "end_port": 79}], [{"port": 80, "end_port": 0}],
             [{"port": 80, "protocol": "tcp"}], [{"port": "80"}], [{"end_port": 80}],
             [{"port": 80, "foo": 1}], "80", 80, [443, 443], [{"port": 443, "protocol": "UDP"}], [{"port": 1, "end_port": 65536}],
             [{"port": 443, "end_port": 444}], []]


# a protocol other than TCP/UDP/SCTP (network-server); a float port (incidental-sdk-messages)
KNOWN_PORTS = KS([[{"port": 80, "protocol": "FOO"}], [80.0]])


@st.composite
def wild_egress_rule(draw: Any) -> Any:
    kind = draw(S(["valid", "host", "ports", "peers", "cidr", "tenant", "selector", "except", "type", "any"]))
    if kind == "valid":
        return draw(seeded(V.egress_rule))
    rule: Any
    if kind == "host":
        rule = {"dns_name": draw(ONE_OF(S(BAD_HOSTS), WRONG))}
        if draw(BOOL):
            rule["ports"] = draw(S([[443], [80], [{"port": 443, "protocol": "tcp"}]]))
    elif kind == "ports":
        rule = {draw(S(["dns_name", "cidr", "any"])): None, "ports": draw(S(BAD_PORTS) | KNOWN_PORTS)}
        dest = next(iter(rule))
        rule[dest] = {"dns_name": "pypi.org", "cidr": "10.0.0.0/8", "any": True}[dest]
    elif kind == "peers":
        rule = draw(S([{}, {"dns_name": "pypi.org", "cidr": "10.0.0.0/8"}, {"any": False}, {"any": True, "tenant": "same_org"},
                       {"ports": [80]}, {"any": 1}, {"any": "true"}]))
    elif kind == "cidr":
        rule = {"cidr": draw(ONE_OF(
            S(["", {"cidr": ""}]),
            # network-server (CIDRs the SDK does not parse), unknown-nested-keys, unchecked-types, incidental
            KS(["not-a-cidr", "10.0.0.1/8", "10.0.0.0/33", "::ffff:10.0.0.0/104", {}, {"cidr": "10.0.0.0/8", "except": "10.1.0.0/16"},
                {"cidr": "10.0.0.0/8", "foo": 1}, 5, {"cidr": "10.0.0.0/8", "except_cidrs": ["bad"]}]),
        ))}
    elif kind == "tenant":
        rule = {"tenant": draw(ONE_OF(S(["bogus", "TENANT_SCOPE_SAME_USER", "sandbox_network", ""]), KS(["unspecified"]), WRONG))}
    elif kind == "selector":
        rule = {"selector": draw(S([{}, {"pod_labels": {}}, "app=db", {"pod_labels": {"a": "b"}, "foo": 1},
                                    {"namespace_labels": {"a": "b"}}, {"pod_labels": {"a": 1}}, ["a"]]))}
    elif kind == "except":
        rule = {"dns_name": "pypi.org", "dns_name_except": draw(S([["a.pypi.org"], [], "x"]))}
    elif kind == "any":
        rule = {"any": True, "ports": draw(LISTS(S(VALID_PORTS), max_size=2))}
    else:
        return draw(ONE_OF(WRONG, S(["pypi.org"])))
    return (DC("EgressRule", **rule) if draw(BOOL) else rule) if isinstance(rule, dict) else rule


WILD_EGRESS_RULE = wild_egress_rule()


@st.composite
def wild_ingress_rule(draw: Any) -> Any:
    kind = draw(S(["valid", "peers", "dns", "selector", "ports", "tenant", "type"]))
    if kind == "valid":
        return draw(seeded(V.ingress_rule))
    rule: Any
    if kind == "peers":
        rule = draw(S([{}, {"any": False}, {"cidr": "10.0.0.0/8", "any": True}, {"ports": [80]}]))
    elif kind == "dns":
        rule = {"dns_name": "pypi.org"}
    elif kind == "selector":
        rule = {"selector": {"pod_labels": {"a": "b"}}}
    elif kind == "ports":
        rule = {"any": True, "ports": draw(S(BAD_PORTS) | KNOWN_PORTS)}
    elif kind == "tenant":
        rule = {"tenant": draw(ONE_OF(S(["bogus", "SAME_USER"]), KS(["sandbox_network"])))}  # network-server
    else:
        return draw(ONE_OF(WRONG, S(["any"])))
    return (DC("IngressRule", **rule) if draw(BOOL) else rule)


WILD_INGRESS_RULE = wild_ingress_rule()


@st.composite
def wild_network(draw: Any) -> Any:
    kind = draw(S(["valid", "egress", "ingress", "deny", "older", "shape"]))
    if kind == "valid":
        return draw(seeded(V.network))
    net: dict[str, Any] = {}
    if kind == "egress":
        net["egress"] = draw(LISTS(ONE_OF(seeded(V.egress_rule), WILD_EGRESS_RULE), min_size=1, max_size=3))
    elif kind == "ingress":
        net["ingress"] = draw(LISTS(ONE_OF(seeded(V.ingress_rule), WILD_INGRESS_RULE), min_size=1, max_size=2))
    elif kind == "deny":
        net = draw(S([{"deny_egress": True, "egress": [{"dns_name": "pypi.org"}]}, {"deny_egress": True, "egress": []},
                      {"deny_egress": "yes"}, {"deny_ingress": True, "ingress": [{"any": True}]},
                      {"deny_egress": None, "deny_ingress": None}]) | KS([{"deny_ingress": 1}]))  # unchecked-types
    elif kind == "older":
        net = draw(S([{"ingress_mode": "public", "exposed_ports": [8080]}, {"egress_mode": "internet"},
                      {"exposed_ports": [80]}, {"ingress_mode": "bogus"}]))
    else:
        return draw(ONE_OF(WRONG, S(["isolated", {"egress": "pypi.org"}, {"ingress": "x"}, {"egres": []},
                                        {"egress": [{"dns_name": "pypi.org"}], "dns_egress": "deny"}])))
    return (DC("NetworkOptions", **net) if draw(BOOL) else net)


# ---- services ------------------------------------------------------------------------------------






@st.composite
def wild_service(draw: Any) -> Any:
    kind = draw(S(["valid", "port", "enum", "endpoint", "shape"]))
    if kind == "valid":
        return draw(seeded(V.service, draw(S([80, 443])), True))
    svc: Any
    if kind == "port":
        svc = {"port": draw(ONE_OF(S([0, 65536, -1, 2**31, 2**40]), WRONG, S(["80"])))}
    elif kind == "enum":
        svc = {"port": 80, draw(S(["protocol", "visibility"])): draw(ONE_OF(S(["http", "internal", "", "TCP_", "tcp "]), WRONG))}
    elif kind == "endpoint":
        svc = draw(S([
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https"}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "grpc", "auth": "open"}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https", "auth": "token"}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https", "auth": "open", "request_timeout_seconds": "15"}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https", "auth": "open", "request_timeout_seconds": 1.5}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https", "auth": "open", "request_timeout_seconds": True}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "tls_passthrough", "auth": "open"}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "tls_passthrough", "request_timeout_seconds": 30}},
            {"port": 443, "visibility": "private", "endpoint": {"kind": "https", "auth": "open"}},
            {"port": 443, "endpoint": {"kind": "https", "auth": "open"}},
            {"port": 443, "visibility": "public", "protocol": "udp", "endpoint": {"kind": "https", "auth": "open"}},
            {"port": 443, "visibility": "public", "endpoint": "https"},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https", "auth": "open", "path": "/"}},
        ]) | KS([  # endpoint-timeout-range
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https", "auth": "open", "request_timeout_seconds": 5}},
            {"port": 443, "visibility": "public", "endpoint": {"kind": "https", "auth": "open", "request_timeout_seconds": 901}},
        ]))
    else:
        return draw(ONE_OF(WRONG, S(["web", {"name": "web"}, {"port": 80, "host_port": 80}, {"port": 80, "name": ""}])))
    return (DC("Service", **svc) if draw(BOOL) else svc)


WILD_SERVICE = wild_service()


wild_services = ONE_OF(
    LISTS(ONE_OF(WILD_SERVICE, seeded(V.service, 8080)), min_size=1, max_size=3),
    S([[{"port": 80}, {"port": 80}], []]),
    WRONG,
)


# ---- volumes and file-system snapshots -------------------------------------------------------------

BAD_PATHS = ["", "rel", "/", "data/"]
# mount-path-server-rules: absolute but not canonical, reserved, too long
SERVER_PATHS = ["/a/../b", "/a/./b", "/a//b", "/proc/x", "/etc/ssl", "/var/run/secrets/x", "/dev", "/sys",
                "/shared/credentials/x", "/" + "x" * 300, "/data/"]








@st.composite
def wild_volume(draw: Any) -> Any:
    kind = draw(S(["path", "name", "size", "medium", "sub_path", "read_only", "registered", "shape"]))
    vol: dict[str, Any] = {"name": "data", "mount_path": "/data"}
    if kind == "path":
        vol["mount_path"] = draw(ONE_OF(S(BAD_PATHS), KS(SERVER_PATHS), WRONG))
    elif kind == "name":
        vol["name"] = draw(ONE_OF(S(["", "Data_1", "x" * 300]), WRONG))
    elif kind == "size":
        drew_known()  # volume-size-and-medium: sizes are the server's to check
        vol["size"] = draw(ONE_OF(S(["abc", "50%", "0", "-1Gi", "", "1K", "101%"]), WRONG))
        if draw(BOOL):
            vol["medium"] = "memory"
    elif kind == "medium":
        # a memory medium without a size: volume-size-and-medium
        vol["medium"] = draw(ONE_OF(S(["ssd", "unspecified", ""]), KS(["memory", "MEMORY", "STORAGE_MEDIUM_MEMORY"]), WRONG))
    elif kind == "sub_path":
        vol["sub_path"] = draw(ONE_OF(S(["/abs", "a/../b", ".", "a//b", "", "a/"]), WRONG))
    elif kind == "read_only":
        vol["read_only"] = draw(S(["yes", 1, "true"]))
    elif kind == "registered":
        vol = draw(KS([{"name": "", "volume_id": "v"}, {"volume_id": "v"}]) | S([{"name": "data", "volume_id": ""}, {"name": "data", "volume_id": "v", "mount_path": "rel"},
                      {"name": "data", "volume_id": "v", "mount_path": ""},
                      {"name": "data", "volume_id": "v", "size": "1Gi", "mount_path": "/d"},
                      {"name": "data", "volume_id": 5}]))
    else:
        return draw(ONE_OF(WRONG, S(["data", {"mount_path": "/data"}, {"name": "data", "mount": "/data"}])))
    cls = "RegisteredVolumeOptions" if "volume_id" in vol else "ScratchVolumeOptions"
    return (DC(cls, **vol) if draw(BOOL) else vol)


WILD_VOLUME = wild_volume()


@st.composite
def wild_volume_family(draw: Any) -> dict[str, Any]:
    kind = draw(S(["valid", "entry", "dup", "fss", "shape", "overlap"]))
    if kind == "valid":
        return draw(seeded(V.volume_family))
    if kind == "entry":
        return {"volumes": [draw(WILD_VOLUME)] + draw(LISTS(S([{"name": "cache", "mount_path": "/mnt/cache"}]), max_size=1))}
    if kind == "dup":
        drew_known()  # mount-path-server-rules: duplicate names and mount paths
        return {"volumes": draw(S([[{"name": "a", "mount_path": "/a"}, {"name": "a", "mount_path": "/b"}],
                                   [{"name": "a", "mount_path": "/a"}, {"name": "b", "mount_path": "/a"}],
                                   [{"name": "a", "mount_path": "/a"}, {"name": "b", "mount_path": "/a/b"}]]))}
    if kind == "fss":
        fss = draw(KS([{"size": "abc"}]) | S([{"mount_path": "rel"}, {"mount_path": ""}, {"mount_path": "/"}, {"name": ""},
                      {"mount_path": "/ws", "extra": 1}, {"file_system_snapshot_id": ""}, "fss-1", 5]))
        out: dict[str, Any] = {"file_system_snapshot": DC("FileSystemSnapshotOptions", **fss)
                               if isinstance(fss, dict) and draw(BOOL) else fss}
        if draw(BOOL):
            drew_known()  # a volume named like the snapshot's default name: mount-path-server-rules
            out["volumes"] = [{"name": "workspace", "mount_path": "/w2"}]
        return out
    if kind == "overlap":
        drew_known()  # mount-path-server-rules: a volume over a mounted file
        return {"volumes": [{"name": "data", "mount_path": "/opt/app"}], "mounted_files": [{"mount_path": "/opt/app/config.json", "file_content": "{}"}]}
    return {"volumes": draw(ONE_OF(WRONG, S(["data", {"name": "data"}])))}


# ---- mounted files ---------------------------------------------------------------------------------





@st.composite
def wild_mounted_files(draw: Any) -> Any:
    kind = draw(S(["valid", "path", "dup", "content", "keys", "shape"]))
    if kind == "valid":
        return draw(seeded(V.mounted_files))
    if kind == "path":
        drew_known()  # mounted-file-path: the SDK does not check mounted-file paths
        return [{"mount_path": draw(ONE_OF(S(BAD_PATHS + SERVER_PATHS), WRONG)), "file_content": "x"}]
    if kind == "dup":
        return [{"mount_path": "/app/a", "file_content": "1"}, {"mount_path": "/app/a", "file_content": "2"}]
    if kind == "content":
        return [{"mount_path": "/app/a", "file_content": draw(ONE_OF(WRONG, S([None, "x" * 10]), KS([b"\xff\xfe"])))}]
    if kind == "keys":
        drew_known()  # spellings (path/content), unknown-nested-keys (mode)
        return [draw(S([{"mount_path": "/app/a"}, {"file_content": "x"}, {"path": "/app/a", "content": "x"},
                        {"mount_path": "/app/a", "file_content": "x", "mode": 420}]))]
    return draw(ONE_OF(WRONG, S(["/app/a", [("/app/a", "x")]]), KS([{"/app/a": 1}, {"rel": "x"}])))


# ---- secrets and image pull credentials --------------------------------------------------------------






@st.composite
def wild_secrets_family(draw: Any) -> dict[str, Any]:
    kind = draw(S(["valid", "secret", "conflict", "ipc", "shape"]))
    if kind == "valid":
        return draw(seeded(V.secrets_family))
    if kind == "secret":
        s = draw(S([{"store": "", "name": "n"}, {"store": "s", "name": ""}, {"store": "s", "name": "n", "env_var": ""},
                    {"store": "s"}, {"name": "n"}, {"store": "s", "name": "n", "extra": 1}, {"store": 1, "name": "n"},
                    {"store": "s", "name": "n", "env_var": "1BAD"}, {"store": "s", "name": "n", "field": None}]))
        return {"secrets": [(DC("Secret", **s) if draw(BOOL) else s)]}
    if kind == "conflict":
        return {"secrets": draw(S([
            [{"store": "a", "name": "n", "env_var": "E"}, {"store": "b", "name": "n", "env_var": "E"}],
            [{"store": "a", "name": "n", "env_var": "E"}, {"store": "a", "name": "n", "env_var": "E"}],
            [{"store": "a", "name": "E"}, {"store": "a", "name": "x", "env_var": "E"}],
            [{"store": "a", "name": "n", "field": "f", "env_var": "E"}, {"store": "a", "name": "n", "env_var": "E"}],
        ])), "environment_variables": draw(S([{}, {"E": "1"}]))}
    if kind == "ipc":
        ipc = draw(S([{"registry": "", "store": "s", "name": "n"}, {"registry": "r", "store": "", "name": "n"},
                      {"registry": "r", "store": "s", "name": ""}, {"registry": "r", "store": "s"},
                      {"registry": "r", "store": "s", "name": "n", "password": "x"}, {"registry": 1, "store": "s", "name": "n"}]))
        return {"image_pull_credentials": (DC("ImagePullCredentials", **ipc) if draw(BOOL) else ipc)}
    drew_known()  # incidental-sdk-error-classes: AttributeError from inside the SDK
    return draw(S([{"secrets": "HF_TOKEN"}, {"secrets": ["HF_TOKEN"]}, {"secrets": {"store": "s", "name": "n"}},
                   {"image_pull_credentials": "ghcr.io"}, {"image_pull_credentials": ["r"]}, {"secrets": [5]}]))


# ---- security context --------------------------------------------------------------------------------



@st.composite
def wild_security_context(draw: Any) -> Any:
    kind = draw(S(["valid", "uid", "bool", "caps", "seccomp", "privilege", "shape"]))
    if kind == "valid":
        return draw(seeded(V.security_context))
    sc: dict[str, Any]
    if kind == "uid":
        sc = {draw(S(["run_as_user", "run_as_group"])): draw(ONE_OF(S([-1, 2**32, 2**64, "1000", 1.5, True]), WRONG))}
    elif kind == "bool":
        sc = {draw(S(["privileged", "allow_privilege_escalation", "read_only_root_filesystem"])): draw(S(["yes", 1, 0, "true", []]))}
    elif kind == "caps":
        key = draw(S(["capabilities_add", "capabilities_drop"]))
        if key == "capabilities_add":
            drew_known()  # security-without-policy: no capability may be added without a policy
        sc = {key: draw(S(["NET_ADMIN", [1], [""], ["net_admin"], ("SYS_TIME",)]))}
    elif kind == "seccomp":
        sc = {"seccomp_profile": draw(ONE_OF(S([""]), KS(["Bogus", "unconfined", "Localhost/x"]), WRONG))}
    elif kind == "privilege":
        drew_known()  # security-without-policy
        sc = draw(S([{"privileged": True}, {"capabilities_add": ["NET_ADMIN"]}, {"seccomp_profile": "Unconfined"},
                     {"capabilities_add": []}]))
    else:
        return draw(ONE_OF(WRONG, S(["privileged", {"run_as_user": 1, "fs_group": 2}]), KS([{"runAsUser": 1}])))  # spellings
    return (DC("SecurityContext", **sc) if draw(BOOL) else sc)


# ---- object storage -------------------------------------------------------------------------------



@st.composite
def wild_object_storage(draw: Any) -> Any:
    kind = draw(S(["valid", "buckets", "permission", "prefix", "shape"]))
    if kind == "valid":
        return draw(seeded(V.object_storage))
    osa: dict[str, Any]
    if kind == "buckets":
        osa = draw(S([{"buckets": []}, {"buckets": "models"}, {"buckets": [""]}, {"buckets": [1]},
                      {"buckets": ("a",)}, {"buckets": ["a", "a"]}]) | KS([{}, {"buckets": None}]))  # incidental
    elif kind == "permission":
        osa = {"buckets": ["a"], "permission": draw(ONE_OF(S(["write", "READ_ONLY", "", "OBJECT_STORAGE_PERMISSION_READ"]), WRONG))}
    elif kind == "prefix":
        osa = {"buckets": ["a"], "object_prefix": draw(ONE_OF(S(["", "/abs"]), WRONG))}
    else:
        return draw(ONE_OF(WRONG, S(["models", ["models"], {"bucket": ["a"]}, {"buckets": ["a"], "region": "x"}])))
    return (DC("ObjectStorageAccess", **osa) if draw(BOOL) else osa)


# ---- containers -----------------------------------------------------------------------------------







@st.composite
def wild_containers(draw: Any) -> dict[str, Any]:
    kind = draw(S(["valid", "name", "primary", "resources", "fields", "conflict", "shape", "gpu"]))
    if kind == "valid":
        return draw(seeded(V.containers))
    base = {"image": "python:3.11", "name": "main", "primary": True, "resources": {"cpu": "1"}}
    if kind == "name":
        bad = draw(ONE_OF(S(["Main", "a_b", "-a", "a-", "x" * 64, "cws-engine", "dns-egress", "dns-egress-probe",
                                "cw-object-store-agent", "cw-object-store-agent-restore-1", "", "a.b"]), WRONG))
        rows: Any = [dict(base, name=bad)]
    elif kind == "primary":
        rows = draw(S([
            [dict(base, primary=False), dict(base, name="b", primary=False)],
            [dict(base), dict(base, name="b")],
            [dict(base), {"image": "x", "resources": {"cpu": "1"}}],
            [dict(base), dict(base, name="main", primary=False)],
        ]) | KS([[dict(base, primary="yes")]]))  # unchecked-types
    elif kind == "resources":
        rows = [dict(base), {"image": "x", "name": "b"}]
    elif kind == "gpu":
        rows = [dict(base), {"image": "x", "name": "b", "resources": {"cpu": "1", "gpu": 1}}]
    elif kind == "fields":
        field, value = draw(KS([("image", 5), ("command", 1), ("environment_variables", {"A": 1}),  # unchecked-types
                                ("mounted_files", [{"mount_path": "rel", "file_content": "x"}])])  # mounted-file-path
                            | S([("image", ""), ("args", "run"), ("args", [1]), ("working_dir", "rel"),
                               ("working_dir", "/"), ("working_dir", ""), ("volume_mounts", [{"volume": "", "mount_path": "/d"}]),
                               ("volume_mounts", [{"volume": "d", "mount_path": "rel"}]), ("volume_mounts", ["d"]),
                               ("secrets", [{"store": "a", "name": "n", "env_var": "E"}, {"store": "b", "name": "n", "env_var": "E"}]),
                               ("image_pull_credentials", {"registry": "", "store": "s", "name": "n"}),
                               ("security_context", {"run_as_user": 1}),
                               ("resources", {"cpu": "x"}), ("resources", {})]))
        rows = [dict(base, **{field: value})]
    elif kind == "conflict":
        key, value = draw(S([("container_image", "python:3.11"), ("command", "python"), ("resources", {"cpu": "1"}),
                             ("environment_variables", {"A": "1"}), ("working_dir", "/app"), ("security_context", {"run_as_user": 1}),
                             ("secrets", [{"store": "s", "name": "n"}]), ("mounted_files", [{"mount_path": "/a", "file_content": "x"}]),
                             ("image_pull_credentials", {"registry": "r", "store": "s", "name": "n"})]))
        return {"containers": [dict(base)], key: value}
    else:
        return {"containers": draw(ONE_OF(WRONG, S([[], "python:3.11", [{"name": "main"}], ["python"], {"image": "x"}])))}
    dc = draw(BOOL)
    return {"containers": [DC("Container", **r) if dc and isinstance(r, dict) else r for r in rows]}


# ---- placement, runners, runtime class --------------------------------------------------------------




@st.composite
def wild_placement(draw: Any) -> dict[str, Any]:
    kind = draw(S(["valid", "mode", "spill", "runners", "runtime"]))
    if kind == "valid":
        return draw(seeded(V.placement))
    if kind == "mode":
        return {"placement_mode": draw(ONE_OF(S(["x", "unspecified", "", "gpu", "cks "]), KS(["SANDBOX_MODE_CKS"]), WRONG))}
    if kind == "spill":
        return draw(KS([{"placement_spillover": 1}]) | S([{"placement_spillover": "x"},
                       {"placement_spillover": "cks_then_serverless", "placement_mode": "serverless"},
                       {"placement_spillover": "serverless_then_cks", "placement_mode": "cks"},
                       {"placement_spillover": "serverless_then_cks", "runner_ids": ["r1"]},
                       {"placement_spillover": "serverless_then_cks", "runner_ids": []},
                       {"placement_spillover": ""}]))
    if kind == "runners":
        return draw(S([{"runner_ids": [1]}, {"runner_ids": ["r1"], "placement_mode": "serverless"}, {"runner_ids": ("r1",)}])
                    # runner-ids-server, unchecked-types
                    | KS([{"runner_ids": [""]}, {"runner_ids": ["r1", "r1"]}, {"runner_ids": ["x" * 70000]},
                          {"runner_ids": ["r%d" % i for i in range(101)]}, {"runner_ids": [" "]}, {"runner_ids": "r1"}]))
    drew_known()  # runtime-class-pin: no runtime class may be pinned without a policy
    return {"runtime_class": draw(ONE_OF(WRONG, S(["kata-qemu", "gvisor", "Kata_QEMU", " "])))}


# ---- timeouts, lifetime -------------------------------------------------------------------------------



@st.composite
def wild_timeouts(draw: Any) -> dict[str, Any]:
    key = draw(S(["max_lifetime_seconds", "request_timeout_seconds", "create_retry_budget_seconds",
                  "poll_retry_budget_seconds", "poll_rpc_timeout_seconds"]))
    value = draw(ONE_OF(
        S([-1, 0, 2592001, 3600.5, "10", "abc", float("nan"), float("inf"), -float("inf"), 1e20, 2**31, 2**63, True, -0.5]),
        WRONG, INTS(-10, 3_000_000),
    ))
    out = draw(seeded(V.timeouts))
    out[key] = value
    if not _sdk_checks_timeout(key, value):
        drew_known()
    return out


def _sdk_checks_timeout(key: str, value: Any) -> bool:
    """False where the value is a known difference: the SDK sends int(max_lifetime_seconds) unchecked
    (lifetime-range, lifetime-not-integer, incidental errors of int()), does not check
    request_timeout_seconds (client-timeouts), and takes a bool for a number (unchecked-types)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if key == "max_lifetime_seconds":
        return isinstance(value, int) and 0 <= value <= 2_592_000
    if key == "request_timeout_seconds":
        return value == value and value >= 0 and value != float("inf")
    return True


# ---- tags, annotations, environment ---------------------------------------------------------------------

wild_tags = ONE_OF(
    seeded(V.tags),
    S(["abc", ("a", "b"), ["a", "a"], [""], ["a b"], ["x" * 60], ["-"], ["ok-"], [None], ["ünï"]]),
    LISTS(ONE_OF(S(["a"]), WRONG), min_size=1, max_size=2),
    # Sandbox.__init__ checks that tags is a list of strings, once it is truthy: {} is "not set"
    WRONG_CHECKED.filter(lambda v: v != {}),
    KS([{}]),  # unchecked-types
)



@st.composite
def wild_annotations(draw: Any) -> Any:
    kind = draw(S(["valid", "value", "key", "count", "shape"]))
    if kind == "valid":
        return draw(seeded(V.annotations))
    if kind == "value":
        return {"team": draw(ONE_OF(S(["", "x" * 300]), WRONG))}
    if kind in ("key", "count"):
        drew_known()  # annotation-rules: the SDK validates no annotation
    if kind == "key":
        return {draw(S(["", "bad key", "a/b/c", "/x", "x/", "-a", "a" * 64, "ünï", "exa mple.com/x", "A.B/c", "kubernetes.io/x"])): "v"}
    if kind == "count":
        return {f"k{i}": "v" for i in range(draw(S([100, 101, 150])))}
    return draw(ONE_OF(WRONG, S([{1: "x"}, {"team": None}]), KS(["team=ml", [("team", "ml")]])))  # incidental


wild_environment = ONE_OF(
    seeded(V.environment),
    S([{"": "x"}, {"A": None}, {"1A": "x"}, {"A=B": "x"}, {1: "x"}, {"A": "x" * 5000}]),
    KS(["A=1", [("A", "1")]]),  # incidental-sdk-messages
    st.dictionaries(S(["A"]), WRONG, min_size=1, max_size=1),
    WRONG,
)

# ---- client options, templates, removed and unknown keys ---------------------------------------------

wild_client = st.fixed_dictionaries({"data_plane_mode": ONE_OF(S(["fast", "", "grpc", "auto ", "DATA_PLANE_MODE_AUTO"]), WRONG)})

wild_template = st.fixed_dictionaries({"template_id": ONE_OF(S(["", "tmpl-1"]), WRONG)})

wild_removed = S([
    {"ports": [{"container_port": 8080}]}, {"ports": []}, {"max_timeout_seconds": 30}, {"max_timeout_seconds": 500},
    {"s3_mount": {"bucket": "b"}}, {"profile_ids": ["p"]}, {"profile_names": ["gpu"]},
    {"network": {"ingress_mode": "public", "exposed_ports": [8080]}}, {"network": {"egress_mode": "isolated"}},
])
wild_unknown = S([
    {"resource": {"cpu": "1"}}, {"tag": ["a"]}, {"enviroment_variables": {"A": "1"}}, {"container": "x"},
    {"env": {"A": "1"}}, {"gpu": 1}, {"image": "python:3.11"}, {"timeout": 30}, {"base_url": "https://example.com"},
    {"temp_dir": "/tmp"}, {"primary_container": "main"}, {"mode": "cks"}, {"files": {"/a": "x"}},
]) | KS([  # spellings, spec-fields
    {"containerImage": "python:3.11"}, {"maxLifetimeSeconds": 60}, {"runnerIds": ["r1"]}, {"instance_type": "gd-8xh100"},
])


# ---- families -------------------------------------------------------------------------------------------

# name → (wild strategy yielding a dict of keywords or one keyword's value, the keywords it owns).
# The valid values are diff_valid.FAMILY_VALID; "removed" and "unknown" are only ever wild.
FAMILIES: dict[str, tuple[Any, tuple[str, ...]]] = {
    "image": (wild_image, ("container_image", "command", "args", "working_dir")),
    "resources": (wild_resources(), ("resources",)),
    "gpu": (wild_gpu(), ("resources", "placement_mode")),
    "containers": (wild_containers(), ("containers",)),
    "network": (wild_network(), ("network",)),
    "services": (wild_services, ("services",)),
    "volumes": (wild_volume_family(), ("volumes", "file_system_snapshot")),
    "mounted_files": (wild_mounted_files(), ("mounted_files",)),
    "secrets": (wild_secrets_family(), ("secrets", "image_pull_credentials")),
    "security_context": (wild_security_context(), ("security_context",)),
    "object_storage": (wild_object_storage(), ("object_storage_access",)),
    "placement": (wild_placement(), ("placement_mode", "placement_spillover", "runner_ids", "runtime_class")),
    "timeouts": (wild_timeouts(), ("max_lifetime_seconds", "request_timeout_seconds", "create_retry_budget_seconds",
                                    "poll_retry_budget_seconds", "poll_rpc_timeout_seconds")),
    "tags": (wild_tags, ("tags",)),
    "annotations": (wild_annotations(), ("annotations",)),
    "environment": (wild_environment, ("environment_variables",)),
    "client": (wild_client, ("data_plane_mode",)),
    "template": (wild_template, ("template_id",)),
    "removed": (wild_removed, ()),
    "unknown": (wild_unknown, ()),
}
SINGLE_KEY = {"resources", "network", "services", "mounted_files", "security_context", "object_storage", "tags",
              "annotations", "environment"}
# Families that cannot be valid together (both set the same keyword, or the SDK forbids the pair).
SINGLE_CONTAINER = {"image", "resources", "gpu", "mounted_files", "secrets", "security_context", "environment"}
CONFLICTS: dict[str, set[str]] = {
    "containers": SINGLE_CONTAINER | {"volumes"},
    "gpu": {"resources", "placement", "containers"},
    "resources": {"gpu", "containers"},
    "placement": {"gpu"},
}
for _c in SINGLE_CONTAINER:
    CONFLICTS.setdefault(_c, set()).add("containers")

FUNCTION_KEYS = frozenset({
    "container_image", "temp_dir", "runner_ids", "resources", "mounted_files", "network", "services", "volumes",
    "file_system_snapshot", "placement_mode", "placement_spillover", "runtime_class", "security_context", "working_dir",
    "object_storage_access", "environment_variables", "annotations", "request_timeout_seconds", "data_plane_mode",
})
FOCUS = [None] + list(FAMILIES)
BACKGROUND = [n for n in FAMILY_VALID if n != "template"]


def wild(name: str) -> st.SearchStrategy[dict[str, Any]]:
    strategy, keys = FAMILIES[name]
    if name in SINGLE_KEY:
        return strategy.map(lambda v, k=keys[0]: {k: v})
    return strategy


def background(g: G, focus: str | None, mode: str) -> list[tuple[str, dict[str, Any]]]:
    """The valid families around the focus: about two, none that conflict."""
    blocked = set(CONFLICTS.get(focus, set())) | ({focus} if focus else set())
    out: list[tuple[str, dict[str, Any]]] = []
    for n in g.r.sample(BACKGROUND, g.int(0, 4)):
        if n in blocked:
            continue
        blocked |= CONFLICTS.get(n, set())
        if n == "volumes":
            value = V.volume_family(g, in_defaults=mode != "run")
        elif n == "mounted_files":
            value = {"mounted_files": V.mounted_files(g, as_list=mode == "function")}  # session.function lists a mapping
        else:
            value = FAMILY_VALID[n](g)
        out.append((n, value))
    return out


@st.composite
def cases(draw: Any) -> Case:
    """A request: a few families valid, at most one (the focus) wild, spread over the layers."""
    _DREW_KNOWN[0] = False
    case = draw(_cached(("assemble",), _assemble))
    case.known = _DREW_KNOWN[0]
    return case


def reference_cases() -> st.SearchStrategy[Case]:
    """The cases that draw no value of a known difference: where the SDK is the reference."""
    return _cached(("reference",), lambda: cases().filter(lambda c: not c.known))


@st.composite
def _assemble(draw: Any) -> Case:
    focus = draw(S(FOCUS))
    mode = draw(S(["run", "run", "run", "defaults", "function"]))
    g = G(draw(INTS(0, 2**32 - 1)))
    parts = [(n, v, False) for n, v in background(g, focus, mode)]
    if focus is not None:
        parts.append((focus, draw(wild(focus)), True))
    family = focus or "valid"
    if mode == "run":
        kw: dict[str, Any] = {}
        for _, v, _ in parts:
            kw.update(v)
        return Case("run", family, kw)
    d: dict[str, Any] = {}
    kw = {}
    focus_in_defaults = focus_in_call = False
    for name, value, is_focus in parts:
        free = name in ("removed", "unknown")  # stray keys: either layer, as they are
        if mode == "defaults":
            to_defaults = draw(BOOL) if is_focus else g.chance()
            focus_in_defaults = focus_in_defaults or (is_focus and to_defaults)
            if name == "removed" and to_defaults:
                drew_known()  # removed-keys-in-defaults: from_dict ignores them
            for k, v in value.items():
                into_defaults = to_defaults and (free or k in SANDBOX_DEFAULTS_FIELDS)
                (d if into_defaults else kw)[k] = v
                focus_in_call = focus_in_call or (is_focus and not into_defaults)
            continue
        # @session.function: what it takes goes to the function, the rest to the session's defaults
        if name == "containers" and not is_focus:
            continue  # the SDK drops the session's containers for functions: only as the focus
        if is_focus and not free and focus in FAMILY_VALID and g.chance(0.25):
            # Now and then the wild value is the session's default, and the function sets the
            # family validly: a default the function replaces (model/replaced_defaults.h).
            d.update({k: v for k, v in value.items() if k in SANDBOX_DEFAULTS_FIELDS})
            replaced = {k: v for k, v in FAMILY_VALID[focus](g).items() if k in FUNCTION_KEYS and k in d}
            kw.update(replaced)
            continue
        to_function = free and draw(BOOL)
        if name == "removed" and not to_function:
            drew_known()  # removed-keys-in-defaults: the session's from_dict ignores them
        for k, v in value.items():
            if to_function or (not free and k in FUNCTION_KEYS):
                kw[k] = v
            elif free or k in SANDBOX_DEFAULTS_FIELDS:
                d[k] = v
    if mode == "defaults":
        as_dc = bool(d) and set(d) <= SANDBOX_DEFAULTS_FIELDS and g.chance()
        # Sandbox(...) reads a SandboxDefaults field only when the call leaves it unset: the call
        # now and then also sets the focus family, validly, so that a wild default is one the call
        # replaces — never read (SG_UNREAD_DEFAULT_INVALID), or still checked when SandboxDefaults
        # is built (__post_init__, from_dict's option classes: model/replaced_defaults.h).
        if focus_in_defaults and focus in FAMILY_VALID and g.chance(0.25):
            for k, v in FAMILY_VALID[focus](g).items():
                kw.setdefault(k, v)
        elif focus_in_defaults and not focus_in_call and g.chance(0.15):
            # Sandbox(template_id=…) reads none of the spec's defaults: the wild default is one
            # the request never reads, or one SandboxDefaults still checks when it is built.
            kw.update(V.template(g))
        if as_dc and isinstance(d.get("secrets"), list):
            # SandboxDefaults(...) keeps secrets as given (only from_dict builds Secret objects):
            # a user of the dataclass form passes Secret objects.
            d["secrets"] = [DC("Secret", **x) if isinstance(x, dict) else x for x in d["secrets"]]
        return Case("defaults", family, kw, defaults=d, defaults_dataclass=as_dc)
    return Case("function", family, kw, defaults=d or None)
