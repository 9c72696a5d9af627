"""Checks the tool-info module against real duet-rs output.

Run from the repository root after `cargo build`, with BenchExec installed:
    DUET_RS=target/debug/duet-rs python3 -m unittest contrib/benchexec/test_duet_rs.py
"""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))

import benchexec.result as result  # noqa: E402
from benchexec.tools.template import BaseTool2  # noqa: E402
from benchexec.util import ProcessExitCode  # noqa: E402

import duet_rs  # noqa: E402

EXE = os.environ.get("DUET_RS", "target/debug/duet-rs")


def run_tool(files, env=None, limits=None):
    tool = duet_rs.Tool()
    task = BaseTool2.Task.with_files(files, property_file="unreach-call.prp", options={"data_model": "LP64"})
    rlimits = limits or BaseTool2.ResourceLimits(cputime=30, memory=512 << 20)
    cmd = tool.cmdline(EXE, [], task, rlimits)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}, text=True)
    output = BaseTool2.RunOutput(p.stdout.splitlines())
    run = BaseTool2.Run(cmd, ProcessExitCode.create(value=p.returncode), output, None)
    return tool.determine_result(run), cmd


class ToolInfoTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(duet_rs.Tool().version(EXE), r"^\d+\.\d+\.\d+$")

    def test_results(self):
        got, cmd = run_tool(["tests/programs/threads.c"])
        self.assertEqual(got, result.RESULT_TRUE_PROP)
        self.assertIn("--timeout", cmd)
        self.assertEqual(run_tool(["tests/programs/control.c"])[0], result.RESULT_UNKNOWN)
        self.assertEqual(run_tool(["tests/bad_input/syntax_error.c"])[0], "ERROR (input)")
        fault = {"DUET_RS_FAULT_INJECTION": "spin:threads.c"}
        limits = BaseTool2.ResourceLimits(cputime=2, memory=512 << 20)
        self.assertEqual(run_tool(["tests/programs/threads.c"], fault, limits)[0], result.RESULT_TIMEOUT)
        fault = {"DUET_RS_FAULT_INJECTION": "alloc:threads.c"}
        self.assertEqual(run_tool(["tests/programs/threads.c"], fault)[0], "OUT OF MEMORY")


if __name__ == "__main__":
    unittest.main()
