"""The pre-commit hook `sandgate-policy-validate` (.pre-commit-hooks.yaml), run the way a user
would try it: `pre-commit try-repo <this repo> sandgate-policy-validate --all-files` in a
temporary git repository holding policy files, with the built `sandgate` on PATH.

No network: the hook is `language: system`, so pre-commit installs no environment, and
try-repo clones the hook repository from its local path.

Which sandgate: $SANDGATE, else build/default/sandgate, else `sandgate` on PATH.
Run: .venv/bin/python -m pytest tests/precommit
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOOK = "sandgate-policy-validate"

GOOD_POLICY = """\
display_name: team-a
constraints:
  resources:
    max_cpu: "4"
    default_cpu: "1"
    default_memory: 2Gi
"""
BAD_POLICY = """\
display_name: team-b
base:
  spec:
    affinity: {}
"""
# Not a policy by the hook's `files` pattern, and not a valid policy either: must be left alone.
NOT_A_POLICY = "replicas: [1, 2\n"


def find_sandgate() -> Path:
    candidates = [os.environ.get("SANDGATE"), str(ROOT / "build" / "default" / "sandgate"), shutil.which("sandgate")]
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return Path(c).resolve()
    pytest.fail("no sandgate binary: build it (cmake --preset default && cmake --build --preset default) "
                "or set SANDGATE=/path/to/sandgate")


def git(cwd: Path, *args: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                   cwd=cwd, env=env, check=True, capture_output=True)


def hook_repo(tmp_path: Path) -> Path:
    """This repository, when its .pre-commit-hooks.yaml is committed (try-repo takes committed and
    tracked files only); otherwise a temporary repository holding the working tree's manifest,
    so the test checks the manifest as it is on disk either way."""
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", ".pre-commit-hooks.yaml"],
                             cwd=ROOT, capture_output=True).returncode == 0
    if tracked:
        return ROOT
    repo = tmp_path / "hook-repo"
    repo.mkdir()
    shutil.copy(ROOT / ".pre-commit-hooks.yaml", repo / ".pre-commit-hooks.yaml")
    git(repo, "init", "-q")
    git(repo, "add", ".pre-commit-hooks.yaml")
    git(repo, "commit", "-q", "-m", "hooks")
    return repo


def user_repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "user-repo"
    repo.mkdir()
    git(repo, "init", "-q")
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "policies")
    return repo


def try_repo(tmp_path: Path, repo: Path) -> subprocess.CompletedProcess[str]:
    sandgate = find_sandgate()
    env = dict(os.environ)
    env["PATH"] = f"{sandgate.parent}{os.pathsep}{env.get('PATH', '')}"
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")  # never the user's cache
    env["NO_COLOR"] = "1"
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(var, None)
    cmd = [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo(tmp_path)), HOOK, "--all-files",
           "--color", "never"]
    print("+", " ".join(cmd))
    proc = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    print(proc.stdout, proc.stderr)
    return proc


def test_hook_passes_on_a_valid_policy(tmp_path: Path) -> None:
    repo = user_repo(tmp_path, {"policies/team-a.yaml": GOOD_POLICY, "deploy/values.yaml": NOT_A_POLICY})
    proc = try_repo(tmp_path, repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "sandgate policy validate" in proc.stdout
    assert "Passed" in proc.stdout


def test_hook_fails_on_an_invalid_policy_with_the_diagnostic(tmp_path: Path) -> None:
    repo = user_repo(tmp_path, {
        "policies/team-a.yaml": GOOD_POLICY,
        "policies/team-b.yaml": BAD_POLICY,
        "deploy/values.yaml": NOT_A_POLICY,
    })
    proc = try_repo(tmp_path, repo)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "Failed" in out
    assert "SG_BASE_FORBIDDEN_FIELD" in out
    assert "policies/team-b.yaml:4:5" in out
    assert "policies/team-a.yaml: valid" in out
    # The `files` pattern keeps non-policy YAML out of the hook.
    assert "values.yaml" not in out


def test_hook_reads_json_policies(tmp_path: Path) -> None:
    repo = user_repo(tmp_path, {"runner-policy.json": '{"constraints": {"resources": {"maxCpu": "nope"}}}\n'})
    proc = try_repo(tmp_path, repo)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "SG_POLICY_QUANTITY" in out
