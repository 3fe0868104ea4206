#!/usr/bin/env python3
"""Reads a JUnit XML report with junitparser (PyPI), a consumer CI tools use, and checks its counts.

    scripts/junit-check.py REPORT.xml CASES FAILED

Exits 0 when the report parses and holds CASES test cases of which FAILED failed, 1 otherwise
(printing what it found), 2 on bad usage.
"""
import sys

from junitparser import JUnitXml


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, cases, failed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    report = JUnitXml.fromfile(path)
    found = failures = 0
    for suite in report:
        for case in suite:
            found += 1
            if not case.is_passed:
                failures += 1
                if not case.result or not case.result[0].message:
                    print(f"{path}: {case.name}: a failure without a message", file=sys.stderr)
                    return 1
    if (found, failures) != (cases, failed):
        print(f"{path}: {found} cases, {failures} failed; expected {cases} and {failed}", file=sys.stderr)
        return 1
    print(f"{path}: {found} cases, {failures} failed, as expected (junitparser)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
