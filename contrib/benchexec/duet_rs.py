# This file is part of duet-rs, a verifier for concurrent C programs.
# SPDX-License-Identifier: MIT
"""
BenchExec tool-info module for duet-rs.

duet-rs runs one task per invocation as `duet-rs check --format json`; this module reads the
JSON report (schema: docs/report-json.md) and maps it to BenchExec's results for the
`unreach-call` property:

- a `violated` assertion                    -> false(unreach-call)
- every assertion `safe` (or none at all)   -> true
- the task's `timeout`                      -> TIMEOUT
- the task's `out-of-memory`                -> OUT OF MEMORY
- the task's `error`                        -> ERROR (input) / ERROR (internal)
- anything else (`unknown`, `bounded-safe`) -> unknown

Install: copy this file into BenchExec's `benchexec/tools/` as `duet-rs.py`, or put its
directory on PYTHONPATH and name the tool `duet_rs` in the benchmark definition.
"""

import json

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """Tool info for duet-rs."""

    REQUIRED_PATHS = []

    def executable(self, tool_locator):
        return tool_locator.find_executable("duet-rs")

    def name(self):
        return "duet-rs"

    def project_url(self):
        return None

    def version(self, executable):
        # `duet-rs --version` prints `duet-rs X.Y.Z`.
        return self._version_from_tool(executable, line_prefix="duet-rs").strip()

    def cmdline(self, executable, options, task, rlimits):
        if task.property_file and not task.property_file.endswith("unreach-call.prp"):
            raise benchexec.tools.template.UnsupportedFeatureException(
                "duet-rs only checks the unreach-call property"
            )
        cmd = [executable, "check", "--format", "json", "--no-progress", "--workers", "1"]
        data_model = (task.options or {}).get("data_model")
        if data_model == "ILP32":
            cmd.append("--m32")
        # duet-rs's own limits fire a little before BenchExec's, so that the report says
        # timeout or out-of-memory itself instead of being killed half-written.
        if rlimits.cputime:
            cmd += ["--timeout", str(max(1, rlimits.cputime - 1))]
        if rlimits.memory:
            cmd += ["--memory", str(max(16, int(rlimits.memory * 0.95) // (1 << 20)))]
        return cmd + list(options) + [task.single_input_file]

    @staticmethod
    def _report(output):
        """The JSON report in the tool's output, which may also hold stderr lines."""
        lines = list(output)
        try:
            start = next(i for i, l in enumerate(lines) if l.rstrip() == "{")
            end = max(i for i, l in enumerate(lines) if l.rstrip() == "}")
        except (StopIteration, ValueError):
            return None
        try:
            return json.loads("\n".join(lines[start : end + 1]))
        except ValueError:
            return None

    def determine_result(self, run):
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        report = self._report(run.output)
        if report is None or not report.get("tasks"):
            if run.was_terminated:
                return "ERROR ({})".format(run.termination_reason)
            return "ERROR (no report, exit code {})".format(run.exit_code.value)
        task = report["tasks"][0]
        outcome = task.get("outcome")
        if outcome == "timeout":
            return result.RESULT_TIMEOUT
        if outcome == "out-of-memory":
            return "OUT OF MEMORY"
        if outcome == "error":
            kind = (task.get("error") or {}).get("kind", "internal")
            return "ERROR ({})".format(kind)
        statuses = [a.get("status") for a in task.get("assertions", [])]
        if "violated" in statuses:
            return result.RESULT_FALSE_REACH
        if all(s == "safe" for s in statuses):
            return result.RESULT_TRUE_PROP
        return result.RESULT_UNKNOWN

    def get_value_from_output(self, output, identifier):
        # Values of the summary, e.g. `<column title="safe">safe</column>`.
        report = self._report(output)
        if report is None:
            return None
        value = report.get("summary", {}).get(identifier)
        return None if value is None else str(value)
