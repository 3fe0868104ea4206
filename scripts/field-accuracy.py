#!/usr/bin/env python3
"""Per-field accuracy of an engine's output against a labelled corpus, overall and on the part
read without a bank-specific parser: what the generalization issue measures.

    scripts/field-accuracy.py CORPUS.jsonl OUTPUT.jsonl [--fields amount,currency] [--why]

Compares fields the way ../shared/conformance/score.py does (its functions are imported). A
message is in the "no bank parser" part when its transaction came from the fallback
(`generic.*`) or when it produced none. Prints only aggregate figures (never a message), so it
may be run on a sealed corpus.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "shared", "conformance"))
import score  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("output")
    parser.add_argument("--fields", default="amount,currency")
    parser.add_argument("--why", action="store_true",
                        help="also count why fields were wrong (no transaction, left out, another value)")
    args = parser.parse_args()
    fields = args.fields.split(",")
    messages = score.load(args.corpus)
    by_id = {}
    for tx in score.load(args.output):
        by_id.setdefault(score.source_id(tx), tx)
    totals = {"all": {f: [0, 0] for f in fields}, "no bank parser": {f: [0, 0] for f in fields}}
    # Why a field was wrong, per part: no transaction at all, the field left out, or another value.
    misses = {part: {f: {"no transaction": 0, "left out": 0, "other value": 0} for f in fields} for part in totals}
    counts = {"all": 0, "no bank parser": 0}
    for message in messages:
        if message.get("negative"):
            continue
        expected = {score.ALIASES.get(k, k): v for k, v in (message.get("expected") or {}).items()}
        tx = by_id.get(score.norm_id(message["id"]))
        parts = ["all"]
        if tx is None or str(tx.get("rule", "")).startswith("generic."):
            parts.append("no bank parser")
        for part in parts:
            counts[part] += 1
            for field in fields:
                if field not in expected:
                    continue
                totals[part][field][1] += 1
                got = score.actual_value(tx, field) if tx is not None else None
                if tx is not None and score.same(field, expected[field], got):
                    totals[part][field][0] += 1
                else:
                    why = "no transaction" if tx is None else "left out" if got in (None, "") else "other value"
                    misses[part][field][why] += 1
    for part in ("all", "no bank parser"):
        figures = ", ".join(
            f"{field} {right}/{total} = {right / total:.3f}" if total else f"{field} -"
            for field, (right, total) in totals[part].items())
        print(f"{part} ({counts[part]} messages): {figures}")
        if args.why:
            for field in fields:
                counted = {why: n for why, n in misses[part][field].items() if n}
                if counted:
                    print(f"  {field} wrong: " + ", ".join(f"{why} {n}" for why, n in counted.items()))


if __name__ == "__main__":
    main()
