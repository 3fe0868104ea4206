#!/usr/bin/env python3
"""How many real spam, scam and promotional texts the rules read as transactions.

    scripts/spam-negatives.py [--binary PATH] [--rev REV] [--part dev|sealed|both] [--misses]

`Tests/Conformance/spam/parts/*.jsonl` hold SMS that public datasets label spam, smishing, scam,
fraud or promotion (and one part of people's texts), in several languages; `SOURCES.md` beside
them says where each comes from. None is a bank's alert, so every transaction read from them is
a false one. Each message falls in the development or the sealed part by a hash of its id (a
third sealed), as the world corpus's cases do: rules may be written from development messages
only, and `--misses` lists only those. Parts named in `DEVELOPMENT_ONLY` (a dataset read whole
before the split existed) are never sealed.

The messages are read as SMS with no sender, as from a phone backup whose sender was lost: the
hardest case, where nothing but the text says whether it is a bank's. `--rev REV` reads them with
the rules and grammars of a commit (the binary stays the same), to measure a change before and
after on the same messages.
"""
import argparse
import collections
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from importlib import import_module

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
PARTS = os.path.join(ROOT, "Tests", "Conformance", "spam", "parts")
# Read in full while the first rules against spam were written, before this split existed.
DEVELOPMENT_ONLY = {"uci"}

sys.path.insert(0, HERE)
out_of_sample = import_module("out-of-sample")


def is_sealed(case, part):
    if part in DEVELOPMENT_ONLY:
        return False
    return int(hashlib.sha1(case["id"].encode("utf-8")).hexdigest(), 16) % 3 == 0


def load():
    cases = []
    for path in sorted(glob.glob(os.path.join(PARTS, "*.jsonl"))):
        part = os.path.basename(path)[:-len(".jsonl")]
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    case = json.loads(line)
                    case["_sealed"] = is_sealed(case, part)
                    cases.append(case)
    return cases


def read(cases, binary, rev, work):
    """The transactions `spendlex parse` reads from the cases, by case id."""
    messages = os.path.join(work, "messages.jsonl")
    with open(messages, "w", encoding="utf-8") as f:
        for case in cases:
            f.write(json.dumps({"id": case["id"], "channel": case.get("channel") or "sms", "text": case["text"]},
                               ensure_ascii=False) + "\n")
    command = [binary, "parse", messages, "-o", os.path.join(work, "out.jsonl"), "--quiet"]
    cwd = ROOT
    if rev:
        out_of_sample.unpack_rules(rev, work)
        command[2:2] = ["--rules", os.path.join(work, "rules"), "--rules", os.path.join(work, "grammars")]
        cwd = work
    run = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if run.returncode not in (0, 1):
        sys.exit(f"spendlex parse failed ({run.returncode}): {run.stderr.strip()[:400]}")
    transactions = {}
    with open(os.path.join(work, "out.jsonl"), encoding="utf-8") as f:
        for line in f:
            tx = json.loads(line)
            transactions[tx["source"]["id"]] = tx
    return transactions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "spendlex"))
    parser.add_argument("--rev", help="read with the rules and grammars of this commit")
    parser.add_argument("--part", choices=["dev", "sealed", "both"], default="both")
    parser.add_argument("--misses", action="store_true", help="list the development messages read as transactions")
    args = parser.parse_args()

    cases = load()
    with tempfile.TemporaryDirectory(prefix="spendlex-spam-") as work:
        read_as = read(cases, args.binary, args.rev, work)
    parts = ["dev", "sealed"] if args.part == "both" else [args.part]
    for name in parts:
        chosen = [c for c in cases if c["_sealed"] == (name == "sealed")]
        false = [c for c in chosen if c["id"] in read_as]
        by_source = collections.Counter(c["source"] for c in chosen)
        false_by_source = collections.Counter(c["source"] for c in false)
        rate = len(false) / len(chosen) if chosen else 0
        print(f"{name}: {len(chosen)} messages, {len(false)} read as transactions ({rate:.3f}); rejected "
              f"{len(chosen) - len(false)}/{len(chosen)}")
        print("  " + ", ".join(f"{s} {false_by_source[s]}/{n}" for s, n in sorted(by_source.items())))
        if args.misses and name == "dev":
            for case in false:
                tx = read_as[case["id"]]
                text = case["text"].replace("\n", " / ")[:180]
                print(f"  {case['id']} ({case.get('language')}): {tx['amount']} {tx['currency']} by {tx['rule']} | {text}")


if __name__ == "__main__":
    main()
