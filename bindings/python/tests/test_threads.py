"""One loaded Policy shared by many threads: same answers, no crash (the GIL is released in check)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import sandgate

POLICY = sandgate.Policy.from_text(
    """
constraints:
  resources:
    max_cpu: "4"
    max_memory: 8Gi
    default_cpu: "1"
    default_memory: 1Gi
  metadata:
    denied_annotation_prefixes: ["sunk.coreweave.com/"]
"""
)

REQUESTS = [
    {"resources": {"cpu": "2", "memory": "2Gi"}},
    {"resources": {"cpu": "8", "memory": "2Gi"}},
    {"resources": {"memory": "2Gi"}, "annotations": {"sunk.coreweave.com/x": "y"}},
    {"resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "3"}}, "placement_mode": "cks"},
]


def answer(request: dict[str, object]) -> tuple[bool, tuple[str, ...], str | None, str]:
    r = sandgate.check(request, policy=POLICY)
    return r.ok, tuple(d.code for d in r.diagnostics), r.qos_class, repr(r.resolved)


def test_threads_sharing_one_policy_agree_with_a_single_thread() -> None:
    expected = [answer(req) for req in REQUESTS]
    jobs = [REQUESTS[i % len(REQUESTS)] for i in range(2000)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(answer, jobs))
    assert got == [expected[i % len(REQUESTS)] for i in range(len(jobs))]


def test_policies_loaded_in_threads() -> None:
    results: list[bool] = []
    lock = threading.Lock()

    def load_and_check() -> None:
        p = sandgate.Policy.from_dict({"constraints": {"resources": {"max_cpu": "4"}}})
        ok = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy=p).ok
        with lock:
            results.append(ok)

    threads = [threading.Thread(target=load_and_check) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [False] * 16
