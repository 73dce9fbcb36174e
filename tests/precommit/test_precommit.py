"""The pre-commit hooks of .pre-commit-hooks.yaml, run the way a user would try them:
`pre-commit try-repo <this repo> <hook> --files …` in a temporary git repository holding policy files.

- `sandgate-policy-validate-system` (language: system) runs the built `sandgate` put on PATH
  ($SANDGATE, else build/default/sandgate, else `sandgate` on PATH).
- `sandgate-policy-validate` (language: python) is run with NO `sandgate` on PATH: pre-commit must
  install sandgate itself from this repository (pip builds it in the hook's venv). Offline: pip
  takes the build requirements from .deps/wheelhouse (scripts/install-deps.sh downloads them) with
  PIP_NO_INDEX=1; valijson's headers come from .deps/valijson (SANDGATE_VALIJSON_INCLUDE), as a
  user's come from libvalijson-dev. The install happens once for the module (one PRE_COMMIT_HOME)
  and takes minutes (a from-source build of the extension and the command; ccache helps);
  SANDGATE_SKIP_PYTHON_HOOK=1 skips those tests.

No network: try-repo clones the hook repository from a local path.
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
HOOK = "sandgate-policy-validate"  # language: python
HOOK_SYSTEM = "sandgate-policy-validate-system"

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


def base_env(pre_commit_home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(pre_commit_home)  # never the user's cache
    env["NO_COLOR"] = "1"
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(var, None)
    return env


def run_try_repo(hook_repository: Path, hook: str, user: Path, env: dict[str, str], files: list[str] | None = None,
                 timeout: int = 300) -> subprocess.CompletedProcess[str]:
    selection = ["--files", *files] if files is not None else ["--all-files"]
    cmd = [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repository), hook, *selection, "--color", "never"]
    print("+", " ".join(cmd))
    proc = subprocess.run(cmd, cwd=user, env=env, capture_output=True, text=True, timeout=timeout)
    print(proc.stdout, proc.stderr)
    return proc


def try_repo(tmp_path: Path, repo: Path) -> subprocess.CompletedProcess[str]:
    """The system hook, with the built sandgate on PATH."""
    sandgate = find_sandgate()
    env = base_env(tmp_path / "pre-commit-home")
    env["PATH"] = f"{sandgate.parent}{os.pathsep}{env.get('PATH', '')}"
    return run_try_repo(hook_repo(tmp_path), HOOK_SYSTEM, repo, env)


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


# ---- language: python — pre-commit installs sandgate itself -------------------------------------------

def snapshot_repo(dest: Path) -> Path:
    """A git repository holding this working tree's files as they are on disk (tracked and new,
    not ignored), committed once: the hook repository pre-commit clones and pip-installs. (try-repo
    on a dirty checkout would commit a new snapshot per call, and pre-commit would build each one.)"""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot")
    return dest


def path_without_sandgate() -> str:
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not (Path(d) / "sandgate").exists()]
    return os.pathsep.join(dirs)


@pytest.fixture(scope="module")
def python_hook() -> tuple[Path, dict[str, str]]:
    if os.environ.get("SANDGATE_SKIP_PYTHON_HOOK") == "1":
        pytest.skip("SANDGATE_SKIP_PYTHON_HOOK=1")
    wheelhouse = ROOT / ".deps" / "wheelhouse"
    valijson = ROOT / ".deps" / "valijson" / "include"
    if not (wheelhouse / ".requires").is_file() or not (valijson / "valijson").is_dir():
        pytest.fail("run scripts/install-deps.sh first (.deps/wheelhouse, .deps/valijson)")
    # Under build/ (git-ignored) at a fixed depth below the root, which is ccache's base directory:
    # every path the hook's build compiles with is then the same from run to run and clone to clone,
    # so a second run (or CI after a local run) takes the core's objects from ccache.
    base = ROOT / "build" / "precommit-python"
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    repo = snapshot_repo(base / "sandgate")
    env = base_env(base / "pre-commit-home")
    env["PATH"] = path_without_sandgate()
    assert shutil.which("sandgate", path=env["PATH"]) is None
    # Offline: pip's isolated build environment is filled from the local wheelhouse only.
    env["PIP_NO_INDEX"] = "1"
    env["PIP_FIND_LINKS"] = str(wheelhouse)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["SANDGATE_VALIJSON_INCLUDE"] = str(valijson)
    # The hook builds its own core, never the one scripts/test.sh prebuilt for the bindings.
    env.pop("SANDGATE_PREBUILT_CORE", None)
    # try-repo clones the hook repository into a fresh temporary store on every call (it ignores
    # PRE_COMMIT_HOME), so each test below installs sandgate anew; with temporary directories under
    # build/ and the CMake build directory inside that clone, the second build takes the core and the
    # command from ccache (only the extension, compiled against pip's randomly named isolated
    # environment, is compiled again).
    (base / "tmp").mkdir()
    env["TMPDIR"] = str(base / "tmp")
    env["SKBUILD_BUILD_DIR"] = "build/{wheel_tag}"
    if shutil.which("ccache") and "CMAKE_CXX_COMPILER_LAUNCHER" not in env:
        env.update(CMAKE_CXX_COMPILER_LAUNCHER="ccache", CCACHE_NOHASHDIR="1", CCACHE_BASEDIR=str(ROOT))
    return repo, env


def examples_repo(tmp_path: Path, extra: dict[str, str] | None = None) -> tuple[Path, list[str]]:
    files = {f"examples/policies/{p.name}": p.read_text() for p in sorted((ROOT / "examples" / "policies").glob("*.yaml"))}
    assert files, "examples/policies/*.yaml is empty"
    files.update(extra or {})
    return user_repo(tmp_path, files), sorted(files)


def test_python_hook_installs_sandgate_and_passes_the_example_policies(
        tmp_path: Path, python_hook: tuple[Path, dict[str, str]]) -> None:
    hook_repository, env = python_hook
    repo, files = examples_repo(tmp_path)
    # The first run builds sandgate into the hook's environment.
    proc = run_try_repo(hook_repository, HOOK, repo, env, files, timeout=1800)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "sandgate policy validate" in proc.stdout and "Passed" in proc.stdout
    # The sandgate that ran is the one pre-commit installed (none is on the PATH it was given).
    assert "Installing environment for" in out


def test_python_hook_fails_on_an_invalid_policy(tmp_path: Path, python_hook: tuple[Path, dict[str, str]]) -> None:
    hook_repository, env = python_hook
    repo, files = examples_repo(tmp_path, {"policies/team-b.yaml": BAD_POLICY})
    proc = run_try_repo(hook_repository, HOOK, repo, env, files, timeout=1800)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Installing environment for" in out
    assert "Failed" in out
    assert "SG_BASE_FORBIDDEN_FIELD" in out
    assert "policies/team-b.yaml:4:5" in out
