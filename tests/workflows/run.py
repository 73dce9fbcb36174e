#!/usr/bin/env python3
"""The GitHub Actions examples in docs/ run as written, without GitHub.

    python3 tests/workflows/run.py --sandgate build/default/sandgate [-v]

Each workflow is read as YAML and its own steps are run:

- the build step names a preset, options and switches of scripts/install-deps.sh that exist;
- docs/github-actions-example.yml's "Validate policies" script, in a scratch checkout with valid,
  invalid and no policy files: its exit status, the `status` it writes to $GITHUB_OUTPUT, and the
  SARIF file it uploads (locations point at the policy files);
- docs/github-actions-policy-diff.yml's "Diff each changed policy" script, in a scratch git
  repository whose last commit changes one policy, adds one and deletes one: the comment it writes
  and the `status` the next step reads; then its github-script step under Node with a recorded
  `github` object (one comment per pull request: created once, then updated; long bodies cut).

It is the `github_actions_examples` ctest. Python 3 with PyYAML: the interpreter's own, else the
checkout's .venv (scripts/install-deps.sh puts PyYAML there).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

try:
    import yaml
except ImportError:
    venv_python = os.path.join(ROOT, ".venv", "bin", "python")
    if os.path.exists(venv_python) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(ROOT, ".venv")):
        os.execv(venv_python, [venv_python, *sys.argv])
    sys.exit("tests/workflows/run.py needs PyYAML: pip install pyyaml, or run scripts/install-deps.sh for .venv")

EXAMPLES = os.path.join(ROOT, "examples")
VALIDATE_WORKFLOW = os.path.join(ROOT, "docs", "github-actions-example.yml")
DIFF_WORKFLOW = os.path.join(ROOT, "docs", "github-actions-policy-diff.yml")
ARGS = None


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def step(workflow, name):
    for job in workflow["jobs"].values():
        for s in job["steps"]:
            if s.get("name") == name:
                return s
    raise AssertionError(f"no step named {name!r}")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def outputs(path):
    """$GITHUB_OUTPUT's `key=value` lines as a dict."""
    with open(path, encoding="utf-8") as f:
        return dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)


def run_step(s, workflow, cwd, extra_env=None):
    """Runs a step's `run` script as Actions would: bash for `shell: bash` (-e -o pipefail), else
    `bash -e`; the workflow's env, then the step's, over this process's; the CLI first on PATH."""
    env = dict(os.environ)
    env.update({k: str(v) for k, v in workflow.get("env", {}).items()})
    env.update({k: str(v) for k, v in (s.get("env") or {}).items() if "${{" not in str(v)})
    env.update(extra_env or {})
    env["PATH"] = os.path.dirname(os.path.abspath(ARGS.sandgate)) + os.pathsep + env["PATH"]
    env["GITHUB_OUTPUT"] = os.path.join(cwd, "github-output")
    open(env["GITHUB_OUTPUT"], "w").close()
    flags = ["-e", "-o", "pipefail"] if s.get("shell") == "bash" else ["-e"]
    return subprocess.run(["bash", "--noprofile", "--norc", *flags, "-c", s["run"]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


class BuildStep(unittest.TestCase):
    """The build step cannot run here (it fetches sandgate), so what it names must exist."""

    def test_names_what_the_checkout_has(self):
        presets = json.loads(read(os.path.join(ROOT, "CMakePresets.json")))
        configure = {p["name"] for p in presets["configurePresets"]}
        build = {p["name"] for p in presets["buildPresets"]}
        cmake_lists = read(os.path.join(ROOT, "CMakeLists.txt"))
        install_deps = read(os.path.join(ROOT, "scripts", "install-deps.sh"))
        for path in (VALIDATE_WORKFLOW, DIFF_WORKFLOW):
            script = step(load(path), "Build sandgate")["run"]
            with self.subTest(workflow=os.path.basename(path)):
                for preset in re.findall(r"cmake --preset (\S+)", script):
                    self.assertIn(preset, configure)
                for preset in re.findall(r"cmake --build --preset (\S+)", script):
                    self.assertIn(preset, build)
                for option in re.findall(r"-D(\w+)=", script):
                    self.assertRegex(cmake_lists, rf"option\({option}\b")
                for switch in re.findall(r"\b(SANDGATE_SKIP_\w+)=1", script):
                    self.assertIn(switch, install_deps)
                self.assertIn("--target sandgate", script)
                self.assertIn("build/default", script)


class ValidateWorkflow(unittest.TestCase):
    def setUp(self):
        self.workflow = load(VALIDATE_WORKFLOW)
        self.step = step(self.workflow, "Validate policies (SARIF)")
        self.dir = tempfile.mkdtemp(prefix="sandgate-workflow-")
        self.addCleanup(shutil.rmtree, self.dir)

    def put(self, rel, text):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def sarif(self):
        with open(os.path.join(self.dir, "sandgate.sarif"), encoding="utf-8") as f:
            return json.load(f)

    def test_valid_policies_pass_with_an_empty_sarif_run(self):
        self.put("policies/prod.yaml", read(os.path.join(EXAMPLES, "policies", "production-cks.yaml")))
        self.put("policies/team/gpu.yml", read(os.path.join(EXAMPLES, "policies", "gpu-cks.yaml")))
        r = run_step(self.step, self.workflow, self.dir)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(outputs(os.path.join(self.dir, "github-output")), {"status": "0"})
        log = self.sarif()
        self.assertEqual(log["version"], "2.1.0")
        self.assertEqual([x for x in log["runs"][0]["results"] if x["level"] == "error"], [])
        # The text form is in the job log too, one line a file (the glob reached the nested one).
        self.assertIn("policies/team/gpu.yml: valid", r.stdout)

    def test_an_invalid_policy_gives_status_1_and_sarif_locations_at_the_file(self):
        self.put("policies/prod.yaml", read(os.path.join(EXAMPLES, "policies", "production-cks.yaml")))
        self.put("policies/bad.json", '{"constraints": {"resources": {"max_cpu": "eight"}}}\n')
        r = run_step(self.step, self.workflow, self.dir)
        # The step itself passes (the upload must still run); the last step fails on status 1.
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(outputs(os.path.join(self.dir, "github-output")), {"status": "1"})
        errors = [x for x in self.sarif()["runs"][0]["results"] if x["level"] == "error"]
        self.assertTrue(errors)
        uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for x in errors for loc in x["locations"]}
        self.assertEqual(uris, {"policies/bad.json"})
        self.assertEqual(errors[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 1)
        fail = step(self.workflow, "Fail when a policy is invalid")
        self.assertEqual(fail["if"], "steps.validate.outputs.status != '0'")
        self.assertEqual(run_step(fail, self.workflow, self.dir).returncode, 1)

    def test_no_policy_file_fails_the_step_and_says_why(self):
        r = run_step(self.step, self.workflow, self.dir)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no policy files match", r.stdout)

    def test_an_unreadable_policy_fails_the_step(self):
        # A directory where a policy file should be: an I/O error, status 2, the step fails.
        os.makedirs(os.path.join(self.dir, "policies", "dir.yaml"))
        self.put("policies/prod.yaml", "{}\n")
        r = run_step(self.step, self.workflow, self.dir)
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(outputs(os.path.join(self.dir, "github-output")), {"status": "2"})


class PolicyDiffWorkflow(unittest.TestCase):
    def setUp(self):
        self.workflow = load(DIFF_WORKFLOW)
        self.dir = tempfile.mkdtemp(prefix="sandgate-workflow-")
        self.addCleanup(shutil.rmtree, self.dir)

    def git(self, *args):
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=self.dir,
                              check=True, capture_output=True, text=True).stdout.strip()

    def copy(self, src, rel):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(src, path)

    def repository(self, changed_policy, new_policy="sunk-slurm.yaml"):
        """A repository whose HEAD changes policies/prod.yaml to `changed_policy`, adds
        policies/new.yaml (examples/policies/`new_policy`) and deletes policies/old.yaml; returns
        the base commit."""
        self.git("init", "-q")
        self.copy(os.path.join(EXAMPLES, "policies", "production-cks.yaml"), "policies/prod.yaml")
        self.copy(os.path.join(EXAMPLES, "policies", "permissive.yaml"), "policies/old.yaml")
        self.copy(os.path.join(EXAMPLES, "runners.yaml"), "runners.yaml")
        self.copy(os.path.join(EXAMPLES, "requests.jsonl"), "requests/sample.jsonl")
        self.git("add", "-A")
        self.git("commit", "-qm", "base")
        base = self.git("rev-parse", "HEAD")
        self.copy(changed_policy, "policies/prod.yaml")
        self.copy(os.path.join(EXAMPLES, "policies", new_policy), "policies/new.yaml")
        os.remove(os.path.join(self.dir, "policies", "old.yaml"))
        self.git("add", "-A")
        self.git("commit", "-qm", "change")
        return base

    def run_diff(self, base, **env):
        return run_step(step(self.workflow, "Diff each changed policy"), self.workflow, self.dir,
                        {"BASE_SHA": base, **env})

    def comment(self):
        return read(os.path.join(self.dir, "comment.md"))

    def test_a_tightening_change_comments_and_sets_status_1(self):
        base = self.repository(os.path.join(EXAMPLES, "policies", "production-cks-v2.yaml"))
        r = self.run_diff(base)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(outputs(os.path.join(self.dir, "github-output")), {"status": "1"})
        body = self.comment()
        self.assertTrue(body.startswith("<!-- sandgate-policy-diff -->\n"))
        self.assertIn("### sandgate policy diff: `base/policies/prod.yaml` → `policies/prod.yaml`", body)
        self.assertIn("NEW would reject", body)
        self.assertIn("`constraints.resources.max_cpu`", body)
        # The added file is compared with {}; the deleted one is named.
        self.assertIn("`base/policies/new.yaml` → `policies/new.yaml`", body)
        self.assertIn("### `policies/old.yaml` is deleted", body)
        # The full text went to the job log as well.
        self.assertIn("constraints.resources.max_cpu", r.stdout)
        fail = step(self.workflow, "Fail when NEW rejects requests OLD accepts (or is invalid)")
        self.assertIn("steps.diff.outputs.status == '1'", fail["if"])

    def test_the_same_policy_again_sets_status_0_without_runners(self):
        # prod.yaml is unchanged in content, so only new.yaml ({} against {}) and old.yaml are in
        # the diff.
        base = self.repository(os.path.join(EXAMPLES, "policies", "production-cks.yaml"), "permissive.yaml")
        r = self.run_diff(base, RUNNERS="")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(outputs(os.path.join(self.dir, "github-output")), {"status": "0"})
        body = self.comment()
        self.assertNotIn("policies/prod.yaml", body)
        self.assertIn("`policies/new.yaml`", body)

    def test_a_missing_request_stream_fails_the_step(self):
        base = self.repository(os.path.join(EXAMPLES, "policies", "production-cks-v2.yaml"))
        r = self.run_diff(base, REQUESTS="requests/absent.jsonl")
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(outputs(os.path.join(self.dir, "github-output")), {"status": "2"})


# The github-script step's body run as actions/github-script runs it (an async function of
# require, github and context), with a `github` that records what it is asked to do.
COMMENT_HARNESS = r"""
const fs = require('fs');
const [script, existing, dir] = [process.argv[1], JSON.parse(process.argv[2]), process.argv[3]];
process.chdir(dir);
const calls = [];
const github = {
  paginate: async (fn, args) => { calls.push(['paginate', fn.name, args]); return existing; },
  rest: { issues: {
    listComments: function listComments() {},
    updateComment: async (args) => { calls.push(['updateComment', args]); },
    createComment: async (args) => { calls.push(['createComment', args]); },
  } },
};
const context = { repo: { owner: 'o', repo: 'r' }, issue: { number: 7 } };
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
new AsyncFunction('require', 'github', 'context', script)(require, github, context)
  .then(() => console.log(JSON.stringify(calls)), (e) => { console.error(e); process.exit(1); });
"""


class CommentStep(unittest.TestCase):
    def setUp(self):
        if shutil.which("node") is None:
            self.skipTest("node is not installed")
        self.script = step(load(DIFF_WORKFLOW), "Comment on the pull request")["with"]["script"]
        self.dir = tempfile.mkdtemp(prefix="sandgate-workflow-")
        self.addCleanup(shutil.rmtree, self.dir)

    def run_comment(self, body, existing):
        with open(os.path.join(self.dir, "comment.md"), "w", encoding="utf-8") as f:
            f.write(body)
        r = subprocess.run(["node", "-e", COMMENT_HARNESS, "--", self.script, json.dumps(existing), self.dir],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def test_creates_one_comment_then_updates_it(self):
        body = "<!-- sandgate-policy-diff -->\n### diff\n"
        calls = self.run_comment(body, [{"id": 3, "user": {"type": "User"}, "body": "<!-- sandgate-policy-diff -->"}])
        self.assertEqual(calls[-1], ["createComment", {"owner": "o", "repo": "r", "issue_number": 7, "body": body}])
        mine = {"id": 9, "user": {"type": "Bot"}, "body": "<!-- sandgate-policy-diff -->\nold"}
        calls = self.run_comment(body, [{"id": 4, "user": {"type": "Bot"}, "body": "other bot"}, mine])
        self.assertEqual(calls[0][:2], ["paginate", "listComments"])
        self.assertEqual(calls[-1], ["updateComment", {"owner": "o", "repo": "r", "comment_id": 9, "body": body}])

    def test_a_long_comment_is_cut_and_says_so(self):
        calls = self.run_comment("<!-- sandgate-policy-diff -->\n" + "x" * 70000, [])
        sent = calls[-1][1]["body"]
        self.assertEqual(len(sent), 60000 + len("\n\n… (cut; the full diff is in the job log)"))
        self.assertTrue(sent.endswith("(cut; the full diff is in the job log)"))


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sandgate", required=True)
    ap.add_argument("-v", "--verbose", action="store_true")
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2 if ARGS.verbose else 1)


if __name__ == "__main__":
    main()
