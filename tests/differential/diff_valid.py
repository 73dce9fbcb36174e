"""Valid values of every keyword family, as plain functions of a random source.

Valid values make up most of every request (the families that are not the case's focus), and
drawing them through Hypothesis strategy by strategy costs more than checking the request twice.
So they are built here from one seed that Hypothesis draws (``diff_strategies.seeded``): the same
seed gives the same values, and the focus family, where shrinking matters, stays a Hypothesis
strategy. "Valid" means accepted by cwsandbox 1.22 *and* by the server with no policy, whatever
else the request holds (Guaranteed resources, because serverless pins limits to requests; no
runtime class pin; no privilege, which a missing policy does not allow).
"""

from __future__ import annotations

import random
from typing import Any

from diff_oracle import DC


class G:
    """The random choices a generator makes."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def pick(self, xs: list[Any]) -> Any:
        return xs[self.r.randrange(len(xs))]

    def chance(self, p: float = 0.5) -> bool:
        return self.r.random() < p

    def int(self, lo: int, hi: int) -> int:
        return self.r.randint(lo, hi)

    def some(self, xs: list[Any], lo: int = 1, hi: int = 3) -> list[Any]:
        return self.r.sample(xs, self.int(lo, min(hi, len(xs))))

    def fields(self, **options: list[Any]) -> dict[str, Any]:
        """A random subset of the keys, each with one of its values."""
        return {k: self.pick(v) for k, v in options.items() if self.chance()}

    def dc(self, name: str, fields: dict[str, Any], p: float = 0.35) -> Any:
        return DC(name, **fields) if self.chance(p) else fields


CPU_LADDER = ["100m", "250m", "500m", "1", "2", "4", "8"]
MEM_LADDER = ["128Mi", "256Mi", "512Mi", "1Gi", "2G", "4Gi", "16Gi"]
IMAGES = ["python:3.11", "ghcr.io/org/app:1.0", "ubuntu@sha256:" + "a" * 64, "registry.example.com:5000/team/img"]
HOSTS = ["pypi.org", "*.pypi.org", "files.pythonhosted.org", "github.com", "a.b-c.example"]
CIDRS = ["10.0.0.0/8", "192.168.1.0/24", "2001:db8::/32", "0.0.0.0/0"]
VALID_PORTS = [80, 8080, {"port": 8000, "end_port": 8080}, {"port": 5432, "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}]
VOLUME_NAMES = ["data", "cache", "scratch", "models"]
VOLUME_PATHS = ["/data", "/mnt/cache", "/scratch/a", "/models"]
FILE_PATHS = ["/opt/app/config.json", "/home/user/.netrc", "/app/run.sh", "/srv/input.txt"]
CONTAINER_NAMES = ["main", "sidecar", "worker-1", "db"]
ANNOTATION_KEYS = ["team", "example.com/owner", "app.kubernetes.io/name", "a-b_c.d"]


# An option object with every field None: a value given (the SDK asks `is not None`), which
# replaces the defaults' value and sends nothing of its own.
EMPTY_RESOURCE_OPTIONS = [DC("ResourceOptions"), DC("ResourceOptions", requests={}), DC("ResourceOptions", limits={}, gpu={})]


def resources(g: G, needed: bool = False) -> Any:
    """needed: a container among several, where ResourceOptions() counts as no resources."""
    if not needed and g.chance(1 / 12):
        return g.pick(EMPTY_RESOURCE_OPTIONS)
    form = g.pick(["flat", "nested", "one-side", "dataclass"])
    keys = g.some(["cpu", "memory"], 1, 2)
    req = {k: g.pick(CPU_LADDER if k == "cpu" else MEM_LADDER) for k in keys}
    if form == "flat":
        return req
    if form == "one-side":
        return {g.pick(["requests", "limits"]): req}
    if form == "dataclass":
        return DC("ResourceOptions", requests=req, limits=dict(req))
    return {"requests": req, "limits": dict(req)}


def gpu(g: G) -> dict[str, Any]:
    cks = g.chance()
    if cks:
        spec: dict[str, Any] = {"count": g.int(1, 8)}
        sel = g.pick([None, "type", "memory_gb"])
        if sel == "type":
            spec["type"] = g.pick(["H100", "A100", "L40S"])
        elif sel == "memory_gb":
            spec["memory_gb"] = g.int(1, 141)
    else:
        spec = g.pick([{"count": 1}, {"count": 1, "memory_gb": 48}, {"count": 1, "memory_gb": 96}])
    cpu, mem = g.pick(CPU_LADDER), g.pick(MEM_LADDER)
    form = g.pick(["flat", "flat-int", "nested"])
    if form == "flat-int" and set(spec) == {"count"}:
        res: Any = {"cpu": cpu, "memory": mem, "gpu": spec["count"]}
    elif form == "nested":
        res = {"requests": {"cpu": cpu, "memory": mem}, "gpu": spec}
    else:
        res = {"cpu": cpu, "memory": mem, "gpu": spec}
    out: dict[str, Any] = {"resources": res}
    mode = "cks" if cks else g.pick(["serverless", None])
    if mode:
        out["placement_mode"] = mode
    return out


def image(g: G) -> dict[str, Any]:
    return g.fields(
        container_image=IMAGES,
        command=["python", "/bin/sh", "bash"],
        args=[[], ["-c", "print(1)"], ["train.py", "--epochs=3"]],
        working_dir=["/app", "/workspace", "/home/user"],
    )


def egress_rule(g: G) -> Any:
    dest = g.pick(["dns_name", "cidr", "tenant", "any", "selector"])
    if dest == "dns_name":
        rule: dict[str, Any] = {"dns_name": g.pick(HOSTS)}
        ports = g.pick([None, [443], [{"port": 443, "protocol": "TCP"}], [{"port": 443, "end_port": 443}]])
    else:
        rule = {
            "cidr": g.pick(CIDRS + [{"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16"]}]),
            "tenant": g.pick(["same_user", "same_org", "SAME_ORG"]),
            "any": True,
            "selector": g.pick([{"pod_labels": {"app": "db"}}, {"pod_labels": {"app": "db"}, "namespace_labels": {"team": "x"}}]),
        }[dest]
        rule = {dest: rule}
        ports = g.some(VALID_PORTS, 1, 2) if g.chance() else None
    if ports is not None:
        rule["ports"] = ports
    return g.dc("EgressRule", rule)


def ingress_rule(g: G) -> Any:
    rule = dict(g.pick([{"cidr": "10.0.0.0/8"}, {"tenant": "same_user"}, {"tenant": "same_org"}, {"any": True},
                        {"cidr": {"cidr": "192.168.0.0/16", "except_cidrs": ["192.168.1.0/24"]}}]))
    if g.chance():
        rule["ports"] = g.some(VALID_PORTS, 1, 2)
    return g.dc("IngressRule", rule)


def network(g: G) -> Any:
    if g.chance(1 / 12):
        return DC("NetworkOptions")
    net: dict[str, Any] = {}
    if g.chance(0.7):
        net["egress"] = [egress_rule(g) for _ in range(g.int(0, 3))]
    if g.chance(0.4):
        net["ingress"] = [ingress_rule(g) for _ in range(g.int(0, 2))]
    if g.chance(0.3):
        net["deny_egress"] = False if net.get("egress") else g.chance()
    if g.chance(0.3):
        net["deny_ingress"] = g.chance()
    return g.dc("NetworkOptions", net)


def service(g: G, port: int, newer: bool = False) -> Any:
    """newer: also the endpoint forms new in 1.22 (share_token, request timeouts, TLS passthrough)."""
    svc: dict[str, Any] = {"port": port}
    if g.chance():
        svc["name"] = g.pick(["web", "api", "metrics"])
    endpoint = g.pick([None, "https", "tls"])
    if endpoint is None:
        if g.chance():
            svc["protocol"] = g.pick(["tcp", "udp", "sctp", "TCP", "unspecified"])
        if g.chance():
            svc["visibility"] = g.pick(["public", "private", "custom", "unspecified", "PUBLIC"])
    else:
        svc["visibility"] = "public"
        if g.chance():
            svc["protocol"] = "tcp"
        if endpoint == "tls" and newer:
            ep: dict[str, Any] = {"kind": "tls_passthrough"}
        else:
            ep = {"kind": "https", "auth": g.pick(["open", "share_token"]) if newer else "open"}
            rt = g.pick([None, 0, 15, 300, 900]) if newer else None
            if rt is not None:
                ep["request_timeout_seconds"] = rt
        svc["endpoint"] = g.dc("Endpoint", ep, 0.5)
    return g.dc("Service", svc)


def services(g: G) -> list[Any]:
    return [service(g, p) for p in g.some([80, 443, 8080, 5432, 9000, 65535, 1], 1, 3)]


def volumes(g: G, in_defaults: bool = False) -> list[Any]:
    out: list[Any] = []
    for i in g.some([0, 1, 2, 3], 1, 3):
        registered = g.chance(0.25)
        vol: dict[str, Any] = {"name": VOLUME_NAMES[i]}
        if registered:
            vol["volume_id"] = g.pick(["vol-123", "v_abc"])
            # SandboxDefaults.from_dict builds RegisteredVolumeOptions, which needs a mount_path;
            # only Sandbox's own volumes= takes an unmounted registered volume.
            if in_defaults or g.chance(0.75):
                vol["mount_path"] = VOLUME_PATHS[i]
        elif g.chance(0.75):
            vol["mount_path"] = VOLUME_PATHS[i]
        if "mount_path" in vol:
            if g.chance():
                vol["sub_path"] = g.pick(["a", "a/b", "sub-dir"])
            if g.chance():
                vol["read_only"] = g.chance()
        if not registered:
            if g.chance():
                vol["size"] = g.pick(["1Gi", "10Gi", "500Mi"])
            if g.chance(0.25):
                vol["medium"] = g.pick(["disk", "DISK"])
            if g.chance(0.25):
                vol["restore_from_snapshot_id"] = "fss-42"
        cls = "RegisteredVolumeOptions" if registered else "ScratchVolumeOptions"
        out.append(g.dc(cls, vol, 0.5) if not registered or "mount_path" in vol else vol)
    return out


def file_system_snapshot(g: G) -> Any:
    return g.dc("FileSystemSnapshotOptions", g.fields(mount_path=["/workspace", "/home/user/work"], size=["5Gi", "20Gi"],
                                                     file_system_snapshot_id=["fss-1"], name=["workspace", "ws"]))


def volume_family(g: G, in_defaults: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if g.chance(0.75):
        out["volumes"] = volumes(g, in_defaults)
    if not out or g.chance():
        out["file_system_snapshot"] = file_system_snapshot(g)
    return out


def mounted_files(g: G, as_list: bool = False) -> Any:
    paths = g.some(FILE_PATHS, 1, 3)
    contents = ["", "hello\n", "{\"a\": 1}", "ünïcode", b"raw bytes", bytearray(b"x")]
    if not as_list and g.chance(0.25):
        return {p: g.pick(contents) for p in paths}
    return [{"mount_path": p, "file_content": g.pick(contents)} for p in paths]


def secret(g: G, env: str) -> Any:
    s: dict[str, Any] = {"store": g.pick(["wandb", "hf"]), "name": g.pick(["HF_TOKEN", "db-credentials"])}
    if g.chance():
        s["field"] = g.pick(["password", ""])
    s["env_var"] = env
    if env == s["name"] and g.chance():
        del s["env_var"]
    return g.dc("Secret", s, 0.5)


def secrets_family(g: G) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if g.chance(0.75):
        out["secrets"] = [secret(g, e) for e in g.some(["HF_TOKEN", "DB_PASS", "API_KEY"], 1, 3)]
    if not out or g.chance():
        ipc = {"registry": g.pick(["ghcr.io", "registry.example.com:5000"]), "store": "regcreds", "name": "ghcr"}
        if g.chance():
            ipc["field"] = "token"
        out["image_pull_credentials"] = g.dc("ImagePullCredentials", ipc, 0.5)
    return out


def security_context(g: G) -> Any:
    if g.chance(1 / 12):
        return DC("SecurityContext")
    return g.dc("SecurityContext", g.fields(
        run_as_user=[0, 1000, 65534, 2**32 - 1], run_as_group=[0, 1000], privileged=[False],
        allow_privilege_escalation=[True, False], read_only_root_filesystem=[True, False],
        capabilities_drop=[["ALL"], ["NET_RAW", "SYS_ADMIN"], []], seccomp_profile=["RuntimeDefault"],
    ))


def object_storage(g: G) -> Any:
    osa: dict[str, Any] = {"buckets": g.some(["models", "datasets", "ckpt-bucket"], 1, 3)}
    osa.update(g.fields(permission=["read", "read_write", "READ", "unspecified"], object_prefix=["runs/", "a/b/"]))
    return g.dc("ObjectStorageAccess", osa)


def container(g: G, name: str | None, primary: bool, needs_resources: bool) -> Any:
    c: dict[str, Any] = {"image": g.pick(IMAGES)}
    if name is not None:
        c["name"] = name
    if primary:
        c["primary"] = True
    elif g.chance():
        c["primary"] = False
    if needs_resources or g.chance():
        c["resources"] = resources(g, needed=needs_resources)
    c.update(g.fields(
        command=["python", "nginx"], args=[["-c", "x"], []], environment_variables=[{"A": "1"}, {}],
        working_dir=["/app"], volume_mounts=[[{"volume": "data", "mount_path": "/data"}]],
        secrets=[[{"store": "s", "name": "TOKEN"}]], image_pull_credentials=[{"registry": "ghcr.io", "store": "s", "name": "n"}],
    ))
    return g.dc("Container", c, 0.5)


def containers(g: G) -> dict[str, Any]:
    n = g.int(1, 3)
    if n == 1:
        rows = [container(g, g.pick([None, "main", "app"]), g.chance(), False)]
    else:
        names = g.r.sample(CONTAINER_NAMES, n)
        p = g.int(0, n - 1)
        rows = [container(g, nm, i == p, True) for i, nm in enumerate(names)]
    out: dict[str, Any] = {"containers": rows}
    if any("volume_mounts" in (c.fields if isinstance(c, DC) else c) for c in rows):
        out["volumes"] = [{"name": "data"}]
    return out


def placement(g: G) -> dict[str, Any]:
    mode = g.pick([None, "serverless", "cks", "CKS", "Serverless"])
    out: dict[str, Any] = {}
    if mode is not None:
        out["placement_mode"] = mode
    if (mode is None or mode.lower() == "cks") and g.chance():
        out["runner_ids"] = g.some(["prod-us-east-1", "gpu-east", "r1"], 0, 3)
    spill = g.pick([None, "strict", "STRICT", "cks_then_serverless", "serverless_then_cks"])
    if spill == "cks_then_serverless" and (mode or "").lower() == "serverless":
        spill = None
    if spill == "serverless_then_cks" and ((mode or "").lower() == "cks" or out.get("runner_ids")):
        spill = None
    if spill is not None:
        out["placement_spillover"] = spill
    if g.chance():
        out["runtime_class"] = ""  # a pin needs a policy that allows it (R-RC)
    return out


def timeouts(g: G) -> dict[str, Any]:
    return g.fields(
        max_lifetime_seconds=[60, 3600, 86400, 2592000, 0],
        request_timeout_seconds=[1, 30.5, 300],
        create_retry_budget_seconds=[0, 10, 0.5],
        poll_retry_budget_seconds=[0, 30],
        poll_rpc_timeout_seconds=[1, 15, 0.5],
    )


def tags(g: G) -> list[str]:
    return [g.pick(["team-a", "exp.1", "v2", "ml_ops", "A"]) for _ in range(g.int(0, 4))]


def annotations(g: G) -> dict[str, str]:
    return {k: g.pick(["ml", "x", "1", "a b"]) for k in g.some(ANNOTATION_KEYS, 0, 3)}


def environment(g: G) -> dict[str, str]:
    return {k: g.pick(["1", "", "x y"]) for k in g.some(["A", "PATH_X", "lower", "B_2"], 0, 3)}


def client(g: G) -> dict[str, Any]:
    return g.fields(data_plane_mode=["auto", "gateway", "direct", "AUTO", "Direct"])


def template(g: G) -> dict[str, Any]:
    return {"template_id": g.pick(["tmpl-1", "t"])}


# family → generator of its keywords (a dict)
FAMILY_VALID = {
    "image": image,
    "resources": lambda g: {"resources": resources(g)},
    "gpu": gpu,
    "containers": containers,
    "network": lambda g: {"network": network(g)},
    "services": lambda g: {"services": services(g)},
    "volumes": volume_family,
    "mounted_files": lambda g: {"mounted_files": mounted_files(g)},
    "secrets": secrets_family,
    "security_context": lambda g: {"security_context": security_context(g)},
    "object_storage": lambda g: {"object_storage_access": object_storage(g)},
    "placement": placement,
    "timeouts": timeouts,
    "tags": lambda g: {"tags": tags(g)},
    "annotations": lambda g: {"annotations": annotations(g)},
    "environment": lambda g: {"environment_variables": environment(g)},
    "client": client,
    "template": template,
}
