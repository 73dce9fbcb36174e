#!/usr/bin/env python3
"""The request-stream commands end to end (SPEC §10): `sandgate check --requests` and
`sandgate policy diff`, on hostile streams and on /dev/full.

    python3 tests/streams/run.py --sandgate build/default/sandgate [--max-rss-mb 200] [-v]

- Hostile streams: invalid UTF-8, a 10 MB line, a non-object line, an unterminated last line, an
  empty file, /dev/zero (a capped number of bytes) — each answered record by record, with the exit
  status SPEC §10.2 gives, the output record count equal to the input record count, and (outside
  sanitizer builds) bounded peak memory.
- Output order does not depend on --jobs; the text format and its summary; policy diff's JSON,
  Markdown and exit codes.
- Every command that writes, with its output on /dev/full, exits 2 and says why (never 0).

It is the `streams_cli` ctest. Python 3 standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(ROOT, "examples")
ARGS = None

POLICY_V1 = os.path.join(EXAMPLES, "policies", "production-cks.yaml")
POLICY_V2 = os.path.join(EXAMPLES, "policies", "production-cks-v2.yaml")
RUNNERS = os.path.join(EXAMPLES, "runners.yaml")
REQUESTS = os.path.join(EXAMPLES, "requests.jsonl")

GOOD = '{"id": "ok", "sandbox": {"container_image": "python:3.11", "resources": {"cpu": "1", "memory": "1Gi"}}}'


def env():
    e = dict(os.environ)
    e["ASAN_OPTIONS"] = "quarantine_size_mb=16:malloc_context_size=0" + (":" + e["ASAN_OPTIONS"] if e.get("ASAN_OPTIONS") else "")
    e.pop("NO_COLOR", None)
    return e


def run(args, stdin_bytes=None, stdin_path=None, stdin_proc=None, stdout_path=None, timeout=120):
    """Runs sandgate; returns (exit, stdout bytes, stderr text, peak RSS in MB). The peak is the
    child's own only when this process is small when it forks (ru_maxrss counts the copy of the
    parent before exec): large inputs come from files or another process, never from memory."""
    stdin = subprocess.DEVNULL
    if stdin_path:
        stdin = open(stdin_path, "rb")
    elif stdin_proc:
        stdin = stdin_proc.stdout
    elif stdin_bytes is not None:
        stdin = subprocess.PIPE
    stdout = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    proc = subprocess.Popen([ARGS.sandgate] + args, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, env=env(), cwd=ROOT)
    out, err = [], []
    threads = []
    if not stdout_path:
        threads.append(threading.Thread(target=lambda: out.append(proc.stdout.read())))
    threads.append(threading.Thread(target=lambda: err.append(proc.stderr.read())))
    if stdin_bytes is not None:
        def feed():
            try:
                for i in range(0, len(stdin_bytes), 1 << 20):
                    proc.stdin.write(stdin_bytes[i:i + (1 << 20)])
                proc.stdin.close()
            except BrokenPipeError:
                pass
        threads.append(threading.Thread(target=feed))
    for t in threads:
        t.start()
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4, for its peak memory
    for t in threads:
        t.join()
    for pipe in (proc.stdout, proc.stderr):
        if pipe:
            pipe.close()
    if stdin_path:
        stdin.close()
    if stdin_proc:
        stdin_proc.stdout.close()
        stdin_proc.kill()
        stdin_proc.wait()
    if stdout_path:
        stdout.close()
    return proc.returncode, b"".join(out), b"".join(err).decode("utf-8", "replace"), usage.ru_maxrss / 1024.0


def lines_of(out):
    return [json.loads(line) for line in out.decode("utf-8").splitlines()]


class Tmp:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="sandgate-streams-")

    def write(self, name, *parts):
        """Writes the parts one after the other; a part may be (bytes, repeat) for large data."""
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            for part in parts:
                data, repeat = part if isinstance(part, tuple) else (part, 1)
                data = data if isinstance(data, bytes) else data.encode("utf-8")
                for _ in range(repeat):
                    f.write(data)
        return path


class HostileStreams(unittest.TestCase):
    """SPEC §10.1: exactly one output record per input record, in order, whatever a line holds."""

    def check(self, path=None, stdin_bytes=None, stdin_proc=None, extra=()):
        args = ["check", "--requests", path or "-", "--policy", POLICY_V1, "--runners", RUNNERS, "--jobs", "2"] + list(extra)
        return run(args, stdin_bytes=stdin_bytes, stdin_proc=stdin_proc)

    def assert_memory(self, rss):
        if ARGS.max_rss_mb:
            self.assertLess(rss, ARGS.max_rss_mb, "peak memory %.0f MB" % rss)
        if ARGS.verbose:
            print(" [peak %.1f MB]" % rss, end="", file=sys.stderr)

    def test_each_hostile_line_is_one_record_level_answer(self):
        tmp = Tmp()
        path = tmp.write(
            "hostile.jsonl",
            GOOD + "\n",                                                     # 1 accepted
            b'{"container_image": "python:3.11", "tags": ["\xff\xfe"]}\n',  # 2 invalid UTF-8
            b"\n",                                                           # blank: skipped
            b'{"tags": ["', (b"a" * (1 << 20), 10), b'"]}\n',                # 4 a 10 MB line
            b"[1, 2, 3]\n",                                                  # 5 not an object
            b'{"container_image": \n',                                       # 6 not JSON
            b"\x00\x00\x00\n",                                              # 7 NUL bytes
            GOOD.replace('"ok"', '"last"'))                                  # 8 unterminated last line
        status, out, err, rss = self.check(path)
        self.assertEqual(status, 1, err)
        records = lines_of(out)
        self.assertEqual([r["record"] for r in records], [1, 2, 4, 5, 6, 7, 8], "one answer per record, in order")
        codes = [[e["code"] for e in r["errors"]] for r in records]
        self.assertEqual(codes, [[], ["SG_INVALID_UTF8"], ["SG_DOC_TOO_LARGE"], ["SG_NOT_AN_OBJECT"], ["SG_SYNTAX"],
                                 ["SG_NUL_BYTE"], []])
        self.assertEqual([r["ok"] for r in records], [True, False, False, False, False, False, True])
        self.assertEqual(records[-1]["id"], "last")
        for r in records[1:-1]:
            self.assertEqual(r["errors"][0]["source"]["line"], r["record"], "a record-level error names its line")
        self.assertIn("7 record(s): 2 accepted, 5 rejected (5 unreadable)", err)
        self.assert_memory(rss)

    def test_an_empty_stream_has_no_records_and_nothing_is_rejected(self):
        tmp = Tmp()
        for name, data in (("empty.jsonl", b""), ("blank.jsonl", b"\n \n\t\n"), ("empty.yaml", b"")):
            status, out, err, _ = self.check(tmp.write(name, data))
            self.assertEqual(status, 0, name + ": " + err)
            self.assertEqual(out, b"", name)
            self.assertIn("0 record(s)", err)
            self.assertIn("(the stream holds no records)", err)

    def test_dev_zero_is_one_oversized_record_in_bounded_memory(self):
        # /dev/zero never ends; a capped number of its bytes stands for it (the reader never holds
        # more than the size limit of one line, however long the line).
        size = 48 << 20
        zeros = subprocess.Popen(["head", "-c", str(size), "/dev/zero"], stdout=subprocess.PIPE)
        status, out, err, rss = self.check(stdin_proc=zeros)
        self.assertEqual(status, 1, err)
        records = lines_of(out)
        self.assertEqual(len(records), 1)
        self.assertEqual(records[0]["errors"][0]["code"], "SG_DOC_TOO_LARGE")
        self.assertIn("(%d bytes)" % size, records[0]["errors"][0]["message"])
        self.assert_memory(rss)

    def test_many_long_lines_do_not_add_up_in_memory(self):
        # 12 lines of 5 MB each (over the limit) then good ones: memory stays near one line's worth.
        tmp = Tmp()
        big = b'{"tags": ["' + b"x" * (5 << 20) + b'"]}\n'
        path = tmp.write("long-lines.jsonl", (big, 12), (GOOD + "\n", 3))
        del big
        status, out, err, rss = self.check(path)
        self.assertEqual(status, 1, err)
        records = lines_of(out)
        self.assertEqual(len(records), 15)
        self.assertEqual(sum(1 for r in records if r["ok"]), 3)
        self.assert_memory(rss)

    def test_json_and_yaml_lists(self):
        tmp = Tmp()
        json_list = tmp.write("list.json", "[\n  %s,\n  42,\n  %s\n]\n" % (GOOD, GOOD))
        status, out, err, _ = self.check(json_list)
        self.assertEqual(status, 1, err)
        self.assertEqual([(r["record"], r["ok"]) for r in lines_of(out)], [(2, True), (3, False), (4, True)])
        yaml_list = tmp.write("list.yaml", "- id: a\n  sandbox: {container_image: python:3.11}\n- [not, a, record]\n")
        status, out, err, _ = self.check(yaml_list)
        self.assertEqual([(r["record"], r["ok"]) for r in lines_of(out)], [(1, True), (3, False)])

    def test_unreadable_input_file_is_exit_2(self):
        status, out, err, _ = self.check("/nonexistent/requests.jsonl")
        self.assertEqual(status, 2)
        self.assertIn("cannot read /nonexistent/requests.jsonl", err)


class BatchCheck(unittest.TestCase):
    def test_output_order_does_not_depend_on_jobs(self):
        tmp = Tmp()
        path = os.path.join(tmp.dir, "r.jsonl")
        subprocess.run([sys.executable, os.path.join(EXAMPLES, "make_requests.py"), "-n", "1500", "--seed", "3", "-o", path],
                       check=True)
        common = ["check", "--requests", path, "--policy", POLICY_V2, "--runners", RUNNERS]
        one = run(common + ["--jobs", "1"])
        four = run(common + ["--jobs", "4"])
        self.assertEqual(one[0], 1)
        self.assertEqual(four[0], 1)
        self.assertEqual(one[1], four[1], "the same answers in the same order")
        self.assertEqual(len(lines_of(one[1])), 1500)
        self.assertIn("1,500 record(s): ", one[2])  # counts are grouped in thousands

    def test_text_lists_rejected_records_then_the_summary(self):
        status, out, err, _ = run(["check", "--requests", REQUESTS, "--policy", POLICY_V2, "--runners", RUNNERS,
                                   "--format", "text", "--color", "never"])
        self.assertEqual(status, 1)
        text = out.decode("utf-8")
        self.assertIn('examples/requests.jsonl:1:136: record 1 (id "eval-0001"): error[SG_RESOURCE_ABOVE_MAX] '
                      "sandbox:/resources/cpu: cpu request 8 is above the policy's max_cpu 4", text)
        self.assertRegex(text, r"\n302 record\(s\): \d+ accepted, \d+ rejected \(2 unreadable\)\n")
        self.assertRegex(text, r"\n  SG_RESOURCE_ABOVE_MAX +\d+\n")
        self.assertNotIn('"record"', text)

    def test_every_record_accepted_is_exit_0(self):
        status, out, err, _ = run(["check", "--requests", "-", "--policy", POLICY_V1], stdin_bytes=(GOOD + "\n").encode() * 3)
        self.assertEqual(status, 0, err)
        self.assertEqual(len(lines_of(out)), 3)

    def test_an_error_says_what_would_be_accepted(self):
        status, out, err, _ = run(["check", "--requests", REQUESTS, "--policy", POLICY_V2, "--runners", RUNNERS])
        self.assertEqual(status, 1, err)
        first = lines_of(out)[0]["errors"][0]
        self.assertEqual(list(first), ["rule", "code", "input", "path", "source", "message", "hint", "python_exception",
                                       "js_exception"])
        self.assertEqual((first["code"], first["hint"]), ("SG_RESOURCE_ABOVE_MAX", "request at most 4"))
        # An unreadable record's error says what the JSON needs (record 301 is cut short); an error
        # with nothing to add has a null hint, not an absent one.
        unreadable = [r for r in lines_of(out) if r["errors"] and r["errors"][0]["code"] == "SG_SYNTAX"]
        self.assertTrue(unreadable)
        self.assertEqual(unreadable[0]["errors"][0]["hint"],
                         "the line ends before its record does: a JSON Lines record is one line (jq -c writes them so), "
                         "and this one may be written over several; as it stands the line needs }}} at the end")
        self.assertTrue(all(isinstance(e["hint"], str) for r in lines_of(out) for e in r["errors"]))
        status, out, err, _ = run(["check", "--requests", "-", "--policy", POLICY_V1], stdin_bytes=b'{"sandbox": @}\n')
        self.assertEqual(status, 1, err)
        self.assertIsNone(lines_of(out)[0]["errors"][0]["hint"])

    def test_usage_errors_are_exit_2(self):
        self.assertEqual(run(["check", "--policy", POLICY_V1])[0], 2)
        self.assertEqual(run(["check", "x.yaml", "--requests", REQUESTS])[0], 2)
        self.assertEqual(run(["check", "--requests", REQUESTS, "--format", "sarif"])[0], 2)


class PolicyDiff(unittest.TestCase):
    def diff(self, *extra):
        return run(["policy", "diff", POLICY_V1, POLICY_V2, "--requests", REQUESTS, "--runners", RUNNERS] + list(extra))

    def test_json_is_one_object_whose_counts_add_up(self):
        status, out, err, _ = self.diff("--format", "json", "--jobs", "2")
        self.assertEqual(status, 1, err)
        doc = json.loads(out)
        self.assertFalse(doc["ok"])
        self.assertEqual(sum(doc["counts"].values()), 302)
        self.assertEqual(doc["counts"]["unreadable"], 2)
        self.assertEqual(len(doc["records"]), 302 - doc["counts"]["unchanged"])
        fields = sorted(c["field"] for c in doc["static_changes"])
        self.assertEqual(fields, ["constraints.lifecycle.default_lifetime_seconds",
                                  "constraints.metadata.denied_annotation_prefixes", "constraints.resources.max_cpu"])
        for r in doc["records"]:
            if r["class"] == "newly_rejected":
                self.assertTrue(r["caused_by"], r)
                self.assertTrue(all(e["hint"] for e in r["errors"]), r)  # each says what NEW accepts
        self.assertEqual(json.loads(out), json.loads(self.diff("--format", "json", "--jobs", "1")[1]))

    def test_markdown_is_a_summary(self):
        status, out, err, _ = self.diff("--format", "markdown")
        self.assertEqual(status, 1, err)
        md = out.decode("utf-8")
        self.assertTrue(md.startswith("### sandgate policy diff:"), md[:80])
        self.assertIn("| `constraints.resources.max_cpu` |", md)
        self.assertIn("#### Newly rejected, by code", md)

    def test_exit_0_when_nothing_is_newly_rejected(self):
        status, out, err, _ = run(["policy", "diff", POLICY_V2, POLICY_V1, "--requests", REQUESTS, "--runners", RUNNERS])
        self.assertEqual(status, 0, err)
        self.assertIn("ok: NEW is valid and rejects no request that OLD accepts", out.decode("utf-8"))
        self.assertEqual(run(["policy", "diff", POLICY_V1, POLICY_V1])[0], 0)

    def test_invalid_new_is_exit_1_and_missing_files_exit_2(self):
        tmp = Tmp()
        bad = tmp.write("bad.yaml", "constraints:\n  resources: {max_cpu: lots}\n")
        status, out, err, _ = run(["policy", "diff", POLICY_V1, bad])
        self.assertEqual(status, 1, err)
        self.assertIn("NEW has 1 error(s)", out.decode("utf-8"))
        self.assertEqual(run(["policy", "diff", POLICY_V1, "/nonexistent.yaml"])[0], 2)
        self.assertEqual(run(["policy", "diff", POLICY_V1, POLICY_V2, "--requests", "/nonexistent.jsonl"])[0], 2)


class ReadmeExample(unittest.TestCase):
    def test_readme_shows_the_diff_as_it_is(self):
        """README's policy diff example is the command's output, verbatim."""
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        start = readme.index("$ sandgate policy diff ")
        block = readme[start:readme.index("```", start)]
        command, _, shown = block.partition("\n    --requests examples/requests.jsonl --examples 2\n")
        self.assertTrue(shown, "README's example command changed; update this test")
        args = command[len("$ sandgate "):].replace("\\", "").split() + ["--requests", "examples/requests.jsonl",
                                                                          "--examples", "2", "--color", "never"]
        status, out, err, _ = run(args)
        self.assertEqual(status, 1, err)
        self.assertEqual(out.decode("utf-8"), shown, "regenerate README's example from the command's output")


class WritesAreChecked(unittest.TestCase):
    """Output that cannot be written is never a silent success: each command on /dev/full exits 2."""

    COMMANDS = [
        ["policy", "validate", POLICY_V1],
        ["policy", "validate", POLICY_V1, "--format", "json"],
        ["policy", "validate", POLICY_V1, "--format", "sarif"],
        ["check", os.path.join(EXAMPLES, "sandboxes", "prod-ok.yaml"), "--policy", POLICY_V1],
        ["check", os.path.join(EXAMPLES, "sandboxes", "prod-ok.yaml"), "--policy", POLICY_V1, "--format", "json"],
        ["check", os.path.join(EXAMPLES, "sandboxes", "prod-ok.yaml"), "--policy", POLICY_V1, "--format", "sarif"],
        ["explain", os.path.join(EXAMPLES, "sandboxes", "prod-ok.yaml"), "--policy", POLICY_V1],
        ["quantity", "1.5Gi"],
        ["quantity", "1.5Gi", "--format", "json"],
        ["schema", "policy"],
        ["codes"],
        ["codes", "--format", "markdown"],
        ["check", "--requests", REQUESTS, "--policy", POLICY_V1],
        ["check", "--requests", REQUESTS, "--policy", POLICY_V1, "--format", "text"],
        ["policy", "diff", POLICY_V1, POLICY_V2],
        ["policy", "diff", POLICY_V1, POLICY_V2, "--requests", REQUESTS, "--format", "json"],
        ["policy", "diff", POLICY_V1, POLICY_V2, "--requests", REQUESTS, "--format", "markdown"],
        ["--help"],
    ]

    def test_every_command_on_dev_full_exits_2(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        for args in self.COMMANDS:
            with self.subTest(args=" ".join(a.replace(ROOT + "/", "") for a in args)):
                status, _, err, _ = run(args, stdout_path="/dev/full")
                self.assertEqual(status, 2, err)
                self.assertIn("sandgate: cannot write the output: No space left on device", err)

    def test_the_same_commands_succeed_on_a_real_file(self):
        tmp = Tmp()
        for args in self.COMMANDS:
            with self.subTest(args=" ".join(args[:3])):
                status, _, err, _ = run(args, stdout_path=os.path.join(tmp.dir, "out"))
                self.assertIn(status, (0, 1), err)
                self.assertNotIn("cannot write", err)


class CommandLineMisuse(unittest.TestCase):
    """What a newcomer's slips at the command line get: a usage error that says why (exit 2), and
    output that stays valid JSON whatever bytes a file name holds."""

    def test_a_file_name_that_is_not_utf8_keeps_json_and_sarif_valid(self):
        tmp = Tmp()
        path = os.path.join(os.fsencode(tmp.dir), b"bad\xff.yaml")
        with open(path, "wb") as f:
            f.write(b'resources: {cpu: "1", memory: 1Gi}\nbogus: 1\n')  # an error: SARIF names the file
        for fmt in ("json", "sarif"):
            with self.subTest(fmt=fmt):
                status, out, err, _ = run(["check", os.fsdecode(path), "--format", fmt])
                self.assertEqual(status, 1, err)
                document = json.loads(out.decode("utf-8"))  # raises on a raw 0xFF
                self.assertIn("bad\ufffd.yaml", json.dumps(document, ensure_ascii=False))

    def test_standard_input_named_twice_is_a_usage_error(self):
        for args in (["check", "-", "-"], ["check", "-", "--policy", "-"], ["policy", "validate", "-", "-"],
                     ["policy", "diff", POLICY_V1, "-", "--runners", "-"]):
            with self.subTest(args=" ".join(a.replace(ROOT + "/", "") for a in args)):
                status, _, err, _ = run(args, stdin_bytes=b"{}\n")
                self.assertEqual(status, 2, err)
                self.assertIn("standard input (-) is named 2 times", err)

    def test_a_directory_says_it_is_one(self):
        status, _, err, _ = run(["check", tempfile.gettempdir()])
        self.assertEqual(status, 2, err)
        self.assertIn("it is a directory", err)

    def test_a_limit_no_document_could_meet_is_a_usage_error(self):
        prod_ok = os.path.join(EXAMPLES, "sandboxes", "prod-ok.yaml")
        for flag, value in (("--max-depth", "-1"), ("--max-bytes", "0"), ("--max-nodes", "0"), ("--max-aliases", "-5")):
            with self.subTest(flag=flag):
                status, _, err, _ = run(["check", prod_ok, flag, value])
                self.assertEqual(status, 2, err)
                self.assertIn(f"sandgate check: {flag} takes a whole number", err)
                self.assertIn(f'not "{value}"', err)
        self.assertEqual(run(["check", prod_ok, "--max-aliases", "0"])[0], 0)

    def test_policy_diff_json_says_it_replayed_and_from_where(self):
        status, out, err, _ = run(["policy", "diff", POLICY_V1, POLICY_V2, "--requests", REQUESTS, "--format", "json"])
        self.assertEqual(status, 1, err)
        document = json.loads(out.decode("utf-8"))
        self.assertTrue(document["replayed"])
        self.assertEqual(document["requests"], REQUESTS)

class CommandAnswers(unittest.TestCase):
    """Exit codes and messages of commands tests/golden cannot run (it adds --color, which
    `quantity` and `codes` do not take, and compares stdout only)."""

    def test_quantity_is_exit_1_when_any_value_is_invalid_and_says_when_it_trimmed(self):
        status, out, err, _ = run(["quantity", "1x", " 2 "])
        self.assertEqual(status, 1, err)  # the valid value last must not decide the exit code
        text = out.decode("utf-8")
        self.assertIn("1x: error: ", text)
        self.assertIn(" 2 : decimal 2, canonical 2, milli 2000 (white space trimmed; the server receives the raw text)\n",
                      text)
        self.assertEqual(run(["quantity", "2", "500m"])[0], 0)

    def test_codes_prints_one_row_per_code(self):
        status, out, err, _ = run(["codes"])
        self.assertEqual(status, 0, err)
        self.assertRegex(out.decode("utf-8"), r"(?m)^SG_RESOURCE_ABOVE_MAX  R-RES-2  error  \S")

    def test_explain_in_json_is_the_report_of_an_explain(self):
        prod_ok = os.path.join(EXAMPLES, "sandboxes", "prod-ok.yaml")
        status, out, err, _ = run(["explain", prod_ok, "--policy", POLICY_V1, "--format", "json"])
        self.assertEqual(status, 0, err)
        document = json.loads(out)
        self.assertEqual(document["results"][0]["command"], "explain")
        self.assertTrue(document["ok"])

    def test_defaults_and_overrides_do_not_apply_to_a_request_stream(self):
        for flag in ("--defaults", "--overrides"):
            with self.subTest(flag=flag):
                status, _, err, _ = run(["check", "--requests", REQUESTS, flag, POLICY_V1])
                self.assertEqual(status, 2, err)
                self.assertIn("do not apply to --requests", err)

    def test_policy_diff_with_a_broken_runners_file_is_exit_1_and_says_where(self):
        tmp = Tmp()
        runners = tmp.write("runners.yaml", "runners:\n  - id: a\n    bogus_field: 1\n")
        status, _, err, _ = run(["policy", "diff", POLICY_V1, POLICY_V2, "--runners", runners])
        self.assertEqual(status, 1, err)
        self.assertRegex(err, r"error\[SG_[A-Z_]+\] .* \(" + re.escape(runners) + r":\d+:\d+\)\n")
        self.assertIn("the runners file has errors; fix them first", err)


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--sandgate", required=True)
    parser.add_argument("--max-rss-mb", type=int, default=48,
                        help="peak memory allowed for the hostile streams; 0 turns the check off (sanitizer builds)")
    parser.add_argument("-v", "--verbose", action="store_true")
    ARGS, rest = parser.parse_known_args()
    ARGS.sandgate = os.path.abspath(ARGS.sandgate)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2 if ARGS.verbose else 1)


if __name__ == "__main__":
    main()
