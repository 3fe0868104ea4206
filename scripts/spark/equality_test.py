#!/usr/bin/env python3
"""Proof that Spendlex on Spark equals one process: the same transactions, field for field, and
the same duplicate links, with the same accounting.

    scripts/spark/equality_test.py [--messages N] [--shards 8] [--binary .build/debug/spendlex]
                                   [--cores 2] [--keep DIR] [--gen-mbox PATH]

The corpus: the reference corpus (shared/bench/gen_mbox.py N, seed 42) with what makes
duplicates in real mailboxes added: push notifications of one alert in ten, 90 seconds after its
e-mail (the same money over another channel), one alert in twenty-five sent again under another
Message-ID (the same content), and one mail in forty that the mailbox holds twice (the same
Message-ID), and a Maildir of 300 other mails. One process reads it as one mbox, one JSON Lines
file and the Maildir:
`spendlex parse --store --no-learning`, then `spendlex export --include-duplicates`, and the
ledger's duplicate reasons and run counts. Spark (local mode, PySpark) reads the same bytes cut
into SHARDS mbox files and two JSON Lines files, and the Maildir, with
scripts/spark/spendlex_spark.py. Every
transaction must be the same but for where its message was read (file and byte offset: the
shards are other files) and the ledger's row id; a duplicate's primary is compared by its
message id. The learned categorizer is off in both: it learns from the whole ledger, which no
filter has.
"""
import argparse
import email
import email.policy
import email.utils
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import spendlex_spark  # noqa: E402


def find_generator(given):
    candidates = [given] if given else []
    candidates += [os.environ.get("SPENDLEX_GEN_MBOX", ""), os.path.join(ROOT, "..", "shared", "bench", "gen_mbox.py"),
                   "/work/shared/bench/gen_mbox.py"]
    for candidate in candidates:
        if candidate and os.path.exists(candidate):
            return candidate
    sys.exit("gen_mbox.py not found: give --gen-mbox PATH")


def make_corpus(folder, count, generator):
    """The reference corpus with duplicates added: (full mbox, twins JSON Lines, shards folder)."""
    base = os.path.join(folder, "reference.mbox")
    subprocess.run([sys.executable, generator, str(count), base, "42"], check=True, stdout=subprocess.DEVNULL)
    data = open(base, "rb").read()
    messages = [(offset, raw) for offset, raw, _ in spendlex_spark.mbox_messages(data)]
    labelled = [int(line.split("\t")[0]) for line in open(base + ".labels.tsv", encoding="utf-8")]
    twins, appended = [], []
    for n, ordinal in enumerate(labelled):
        raw = messages[ordinal][1]
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        if n % 10 == 3:
            body = parsed.get_body(preferencelist=("plain", "html"))
            sent = email.utils.parsedate_to_datetime(parsed["Date"]).timestamp() + 90
            twins.append({"id": f"push-{ordinal}", "channel": "push", "sender": parsed["From"].addresses[0].addr_spec,
                          "received_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(sent)),
                          "text": body.get_content()})
        if n % 25 == 7:
            old = parsed["Message-ID"]
            appended.append(raw.replace(old.encode(), f"<resend-{ordinal}@spendlex.test>".encode(), 1))
    for n, (_, raw) in enumerate(messages):
        if n % 40 == 11:
            appended.append(raw)
    full = os.path.join(folder, "full.mbox")
    with open(full, "wb") as out:
        out.write(data)
        if not data.endswith(b"\n\n"):
            out.write(b"\n" if data.endswith(b"\n") else b"\n\n")
        for raw in appended:
            out.write(b"From duplicates@spendlex.test Mon Jan  1 00:00:00 2024\n" + raw.rstrip(b"\n") + b"\n\n")
    jsonl = os.path.join(folder, "twins.jsonl")
    with open(jsonl, "w", encoding="utf-8") as out:
        for twin in twins:
            out.write(json.dumps(twin) + "\n")
    # A Maildir too: 300 other reference mails (another seed), in cur/ and new/, named as mail
    # clients name them (with ':2,' and flags, which Hadoop's paths cannot hold).
    other = os.path.join(folder, "other.mbox")
    subprocess.run([sys.executable, generator, "300", other, "7"], check=True, stdout=subprocess.DEVNULL)
    maildir = os.path.join(folder, "maildir")
    for sub in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(maildir, sub), exist_ok=True)
    for n, (_, raw, _) in enumerate(spendlex_spark.mbox_messages(open(other, "rb").read())):
        name = f"17000000{n:02d}.M{n}P1.spendlex.test" + (":2,S" if n % 3 else "")
        with open(os.path.join(maildir, "cur" if n % 3 else "new", name), "wb") as out:
            out.write(raw)
    return full, jsonl, maildir, len(twins), len(appended)


def shard(full, jsonl, folder, shards):
    """The same bytes as SHARDS mbox files cut at message boundaries, then the twins as two
    JSON Lines files; file names sort in reading order."""
    os.makedirs(folder)
    data = open(full, "rb").read()
    starts = [offset for offset, _, _ in spendlex_spark.mbox_messages(data)]
    cuts = [0] + [starts[len(starts) * k // shards] for k in range(1, shards)] + [len(data)]
    for k in range(shards):
        with open(os.path.join(folder, f"a-{k:02d}.mbox"), "wb") as out:
            out.write(data[cuts[k]:cuts[k + 1]])
    lines = open(jsonl, "rb").read().splitlines(keepends=True)
    half = len(lines) // 2
    for k, part in enumerate((lines[:half], lines[half:])):
        with open(os.path.join(folder, f"b-{k}.jsonl"), "wb") as out:
            out.write(b"".join(part))


def one_process(binary, full, jsonl, maildir, folder):
    store = os.path.join(folder, "single.db")
    if os.path.exists(store):
        os.remove(store)
    started = time.time()
    subprocess.run([binary, "parse", full, jsonl, maildir, "--store", store, "--no-learning", "--quiet"], check=True,
                   cwd=ROOT)
    seconds = time.time() - started
    exported = subprocess.run([binary, "export", "--store", store, "--format", "jsonl", "--include-duplicates"],
                              check=True, cwd=ROOT, capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in exported.splitlines()]
    db = sqlite3.connect(store)
    ids = dict(db.execute("SELECT t.id, t.message_id FROM transactions t"))
    reasons = dict(db.execute("SELECT message_id, duplicate_reason FROM transactions"))
    run = db.execute("SELECT messages, transactions, ignored, unmatched, errors, duplicates FROM import_runs").fetchone()
    transactions = {}
    for row in rows:
        row["duplicate_of"] = ids.get(row["duplicate_of"]) if row["duplicate_of"] is not None else None
        row["duplicate_reason"] = reasons.get(row["source"]["id"])
        transactions[row["source"]["id"]] = row
    counts = dict(zip(["messages", "transactions", "ignored", "unmatched", "errors", "duplicates"], run))
    return transactions, counts, seconds


def on_spark(binary, shards, maildir, folder, cores):
    out = os.path.join(folder, "spark-out")
    shutil.rmtree(out, ignore_errors=True)
    started = time.time()
    subprocess.run([sys.executable, os.path.join(HERE, "spendlex_spark.py"), shards, maildir, "--output", out,
                    "--binary", binary, "--rules", os.path.join(ROOT, "rules"), "--rules", os.path.join(ROOT, "grammars"),
                    "--master", f"local[{cores}]"], check=True, cwd=ROOT)
    seconds = time.time() - started
    transactions = {}
    for part in sorted(glob.glob(os.path.join(out, "transactions", "part-*"))):
        for line in open(part, encoding="utf-8"):
            row = json.loads(line)
            transactions[row["source"]["id"]] = row
    accounting = json.load(open(os.path.join(out, "accounting.json")))
    return transactions, accounting, seconds


def compare(single, spark):
    problems = []
    for missing in sorted(set(single) - set(spark))[:10]:
        problems.append(f"{missing}: in the ledger, not from Spark")
    for extra in sorted(set(spark) - set(single))[:10]:
        problems.append(f"{extra}: from Spark, not in the ledger")
    for key in sorted(set(single) & set(spark)):
        a, b = dict(single[key]), dict(spark[key])
        a.pop("ledger_id", None)
        for row in (a, b):
            row["source"] = {k: v for k, v in row["source"].items() if k not in ("file", "offset")}
        if a != b:
            fields = sorted(field for field in set(a) | set(b) if a.get(field) != b.get(field))
            problems.append(f"{key}: " + "; ".join(f"{f}: ledger {a.get(f)!r}, Spark {b.get(f)!r}" for f in fields))
        if len(problems) > 20:
            break
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100000)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "spendlex"))
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", help="work in this folder and leave it")
    parser.add_argument("--gen-mbox")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    folder = args.keep or tempfile.mkdtemp(prefix="spendlex-spark-")
    os.makedirs(folder, exist_ok=True)
    try:
        full, jsonl, maildir, twins, appended = make_corpus(folder, args.messages, find_generator(args.gen_mbox))
        shards = os.path.join(folder, "shards")
        shutil.rmtree(shards, ignore_errors=True)
        shard(full, jsonl, shards, args.shards)
        print(f"corpus: {args.messages} reference mails, {appended} added to the mbox (resent or held twice), "
              f"{twins} push twins; {args.shards} mbox shards and 2 JSON Lines files; a Maildir of 300 more",
              file=sys.stderr)
        single, counts, single_seconds = one_process(binary, full, jsonl, maildir, folder)
        spark, accounting, spark_seconds = on_spark(binary, shards, maildir, folder, args.cores)
        problems = compare(single, spark)
        for name in ("messages", "transactions", "ignored", "unmatched", "errors", "duplicates"):
            if counts[name] != accounting[name]:
                problems.append(f"count of {name}: ledger {counts[name]}, Spark {accounting[name]}")
        linked = sum(1 for row in single.values() if row["duplicate_of"])
        print(f"one process: {len(single)} transactions, {linked} linked as duplicates, {single_seconds:.1f} s; "
              f"Spark local[{args.cores}]: {len(spark)} transactions, {accounting['duplicates']} linked, "
              f"{spark_seconds:.1f} s", file=sys.stderr)
        if linked == 0 or accounting["repeated_messages"] == 0:
            problems.append("the corpus made no duplicates: the test would prove nothing")
        if problems:
            print("DIFFERENT:\n  " + "\n  ".join(problems), file=sys.stderr)
            sys.exit(1)
        print(f"equal: {len(single)} transactions field for field, {linked} duplicate links, counts {counts}",
              file=sys.stderr)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
