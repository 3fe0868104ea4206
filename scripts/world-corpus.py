#!/usr/bin/env python3
"""Builds the world conformance corpus from the parts gathered per region.

    python3 scripts/world-corpus.py            # parts/*.jsonl -> dev.jsonl, sealed.jsonl, SOURCES.md
    python3 scripts/world-corpus.py --stats    # counts per country, source, channel; the corpus rules

Each case goes to the sealed part when the SHA-256 of SEED and its id falls in the lowest 30%:
a fixed, random choice made before anyone reads the cases, independent of the other cases (a
case added later does not move the others). Rules are written from dev.jsonl only; sealed.jsonl
is only scored (see Tests/Conformance/README.md).
"""
import collections
import glob
import hashlib
import json
import os
import sys

SEED = "spendlex-world-2026-11-25"
SEALED_SHARE = 0.30
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Conformance", "world")


def sealed(case_id):
    digest = hashlib.sha256(f"{SEED}:{case_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < SEALED_SHARE


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def stats(cases):
    def top(key):
        return collections.Counter(c.get(key) for c in cases).most_common()
    n = len(cases)
    countries, sources = top("country"), top("source")
    print(f"{n} cases, {sum(1 for c in cases if c.get('negative'))} negative, "
          f"{len(countries)} countries, {len(sources)} sources")
    print("countries:", ", ".join(f"{k} {v}" for k, v in countries))
    print("sources:", ", ".join(f"{k} {v}" for k, v in sources))
    print("largest country share %.2f, largest source share %.2f" % (countries[0][1] / n, sources[0][1] / n))


def main(argv):
    if "--stats" in argv:
        cases = load(os.path.join(HERE, "dev.jsonl")) + load(os.path.join(HERE, "sealed.jsonl"))
        stats(cases)
        return 0
    cases, ids = [], set()
    for path in sorted(glob.glob(os.path.join(HERE, "parts", "*.jsonl"))):
        for case in load(path):
            if case["id"] in ids:
                sys.exit(f"{path}: duplicate id {case['id']}")
            ids.add(case["id"])
            cases.append(case)
    dev = [c for c in cases if not sealed(c["id"])]
    hidden = [c for c in cases if sealed(c["id"])]
    for name, part in (("dev.jsonl", dev), ("sealed.jsonl", hidden)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            for case in part:
                f.write(json.dumps(case, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "SOURCES.md"), "w", encoding="utf-8") as out:
        out.write("# Sources of the world conformance corpus\n\n"
                  "Every case's `source` key names one section below: where it was taken from (repository,\n"
                  "path, commit), its licence, and how the source's own expected values were mapped.\n")
        for path in sorted(glob.glob(os.path.join(HERE, "parts", "*-sources.md"))):
            with open(path, encoding="utf-8") as f:
                out.write("\n\n" + f.read().strip() + "\n")
    print(f"{len(dev)} development cases, {len(hidden)} sealed")
    stats(cases)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
