#!/usr/bin/env python3
"""How well the rules read messages nobody had seen when they were written: each gathering round
of the world corpus read with the rules of the commit before the round was added.

    scripts/out-of-sample.py [--binary PATH] [--with FILE ...] [--add PATH=FILE ...]
                             [--fragment NAME=FILE ...] [--last N] [--misses]

For every `Tests/Conformance/world/parts/*.jsonl`, the commit that added it is found with git;
the rules and grammars of its parent are unpacked into a scratch folder and the round's cases of
the development part are parsed with them (by the binary given, the release build by default).
A round's cases were gathered after those rules, so this is the accuracy a rule pack had on
messages from banks and formats it had not met: the measure a general rule should move.

`--fragment NAME=FILE` replaces a grammar fragment's one-line definition in every old pack by
FILE's text (the quoted YAML value), so that a change to a shared fragment is judged the same way.
`--with FILE` appends FILE's parsers (YAML list items, indented as under `parsers:`) to the old
fallback file before reading, so that a candidate rule can be judged on every past round at once:
what it gains on rounds it was not written from, and what negatives it lets in. `--add PATH=FILE`
puts a whole file into each old rule pack (a country profile, a bank file). A candidate may use
only the fragments the old packs have (the oldest lack some: `--last N` keeps the recent rounds).
Sealed cases are never read (`world-corpus.py` decides which they are); only aggregate figures are
printed unless `--misses` asks for the development cases still missed.
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
WORLD = os.path.join(ROOT, "Tests", "Conformance", "world")
sys.path.insert(0, os.path.join(ROOT, "..", "shared", "conformance"))
sys.path.insert(0, HERE)
import score  # noqa: E402
from importlib import import_module  # noqa: E402

corpus = import_module("world-corpus")


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], check=True, capture_output=True, text=True).stdout


def adding_commit(path):
    """The commit that added a part, or None when it is not committed yet."""
    out = git("log", "--diff-filter=A", "--format=%H", "--", os.path.relpath(path, ROOT)).split()
    return out[-1] if out else None


def unpack_rules(commit, into):
    archive = subprocess.run(["git", "-C", ROOT, "archive", commit, "rules", "grammars"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)


def replace_fragment(grammars, name, definition):
    """Replaces the one-line definition of fragment `name` in an unpacked pack's grammars by
    `definition` (the YAML value, quoted as in the file). A pack without the fragment is left as it is."""
    prefix = f"  {name}: "
    for path in glob.glob(os.path.join(grammars, "*.yaml")):
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        for index, line in enumerate(lines):
            if line.startswith(prefix):
                lines[index] = prefix + definition + "\n"
                with open(path, "w", encoding="utf-8") as f:
                    f.writelines(lines)
                return


def judge(cases, output):
    """Counts of the round's cases read right (amount, currency, negatives rejected, each with its
    total), and the cases read wrong with the field that was."""
    by_id = {}
    for tx in score.load(output):
        by_id.setdefault(score.source_id(tx), tx)
    counts = collections.Counter()
    missed = []
    for case in cases:
        tx = by_id.get(score.norm_id(case["id"]))
        if case.get("negative"):
            counts["negatives"] += 1
            if tx is None:
                counts["rejected"] += 1
            else:
                missed.append((case, tx, "amount"))
            continue
        expected = {score.ALIASES.get(k, k): v for k, v in (case.get("expected") or {}).items()}
        for field in ("amount", "currency"):
            if field not in expected:
                continue
            counts[field + " total"] += 1
            if tx is not None and score.same(field, expected[field], score.actual_value(tx, field)):
                counts[field] += 1
            elif tx is not None or field == "amount":
                missed.append((case, tx, field))
    return counts, missed


def figures(counts):
    return (f"amount {counts['amount']}/{counts['amount total']}, "
            f"currency {counts['currency']}/{counts['currency total']}, "
            f"negatives rejected {counts['rejected']}/{counts['negatives']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "spendlex"))
    parser.add_argument("--with", dest="extra", action="append", default=[],
                        help="a file of fallback parsers to append to each old fallback file")
    parser.add_argument("--add", action="append", default=[], metavar="PATH=FILE",
                        help="copy FILE into each old rule pack at PATH (rules/countries/ua.yaml=ua.yaml)")
    parser.add_argument("--fragment", action="append", default=[], metavar="NAME=FILE",
                        help="replace grammar fragment NAME's one-line definition in each old pack by FILE's text")
    parser.add_argument("--misses", action="store_true", help="print the development cases missed")
    parser.add_argument("--last", type=int, default=0, help="only the last N rounds")
    args = parser.parse_args()
    extra = "".join("\n" + open(path, encoding="utf-8").read() for path in args.extra)

    # Parts added by one commit are read together, with that commit's parent's rules.
    rounds = collections.OrderedDict()
    for path in sorted(glob.glob(os.path.join(WORLD, "parts", "*.jsonl"))):
        commit = adding_commit(path)
        if commit is None:
            print(f"{os.path.basename(path)}: not committed, skipped", file=sys.stderr)
            continue
        rounds.setdefault(commit, []).append(path)
    order = {c: int(git("log", "-1", "--format=%ct", c)) for c in rounds}
    sums = collections.Counter()
    with tempfile.TemporaryDirectory(prefix="spendlex-oos-") as scratch:
        for commit in sorted(rounds, key=order.get)[-args.last:]:
            cases = [c for p in rounds[commit] for c in corpus.load(p) if not corpus.sealed(c["id"])]
            if not cases:
                continue
            work = os.path.join(scratch, commit[:12])
            os.makedirs(work)
            unpack_rules(commit + "^", work)
            if extra:
                with open(os.path.join(work, "rules", "fallback", "generic.yaml"), "a", encoding="utf-8") as f:
                    f.write(extra)
            for pair in args.fragment:
                name, source = pair.split("=", 1)
                replace_fragment(os.path.join(work, "grammars"), name,
                                 open(source, encoding="utf-8").read().strip())
            for pair in args.add:
                where, source = pair.split("=", 1)
                os.makedirs(os.path.dirname(os.path.join(work, where)), exist_ok=True)
                with open(source, encoding="utf-8") as f, open(os.path.join(work, where), "w", encoding="utf-8") as g:
                    g.write(f.read())
            messages = os.path.join(work, "cases.jsonl")
            with open(messages, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
            output = os.path.join(work, "out.jsonl")
            run = subprocess.run([args.binary, "parse", "--rules", os.path.join(work, "rules"),
                                  "--rules", os.path.join(work, "grammars"), messages, "-o", output, "--quiet"],
                                 capture_output=True, text=True)
            if run.returncode not in (0, 1) or not os.path.exists(output):
                sys.exit(f"{commit[:7]}: spendlex parse failed ({run.returncode}): {run.stderr.strip()[:400]}")
            counts, missed = judge(cases, output)
            sums += counts
            names = ", ".join(os.path.basename(p)[:-6] for p in rounds[commit])
            print(f"{names} (rules of {commit[:7]}^): {figures(counts)}")
            if args.misses:
                for case, tx, field in missed:
                    got = f"{tx.get(field)} by {tx.get('rule')}" if tx else "nothing"
                    want = "no transaction" if case.get("negative") else f"{field} {case['expected'].get(field)}"
                    print(f"  {case['id']} ({case.get('country')}): want {want}, got {got} | "
                          + case["text"][:200].replace("\n", " / "))
    print(f"all rounds: {figures(sums)} (amount {sums['amount'] / max(sums['amount total'], 1):.3f})")


if __name__ == "__main__":
    main()
