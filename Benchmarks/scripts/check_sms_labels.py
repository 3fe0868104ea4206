#!/usr/bin/env python3
"""Checks `spendlex parse` output on an SMS corpus from `spendlex-corpus sms|jsonl`.

    check_sms_labels.py CORPUS.labels.tsv OUTPUT.jsonl

The corpus is the labels file's name without `.labels.tsv`. Transactions are tied to
their message by `source.offset`: for an SMS Backup & Restore file the byte offset of
the `<sms` element (its ordinal is found by scanning the file), for JSON Lines the
1-based line number. Every labelled message must give exactly one transaction from the
labelled parser with the labelled amount, merchant (empty: none) and account digits;
no other message may give one. Prints counts and the first mismatches; exits 1 on any
difference.
"""
import json
import re
import sys
from decimal import Decimal


def ordinal_of_offset(corpus):
    """Maps a transaction's source offset to the message ordinal."""
    if corpus.endswith(".jsonl"):
        return lambda offset: offset - 1
    with open(corpus, "rb") as f:
        data = f.read()
    starts = {m.start(): i for i, m in enumerate(re.finditer(rb"<sms[\s/>]", data))}
    return lambda offset: starts.get(offset)


def main(labels_path, output_path):
    corpus = labels_path[: -len(".labels.tsv")]
    ordinal_of = ordinal_of_offset(corpus)
    labels = {}
    with open(labels_path, encoding="utf-8") as f:
        for line in f:
            ordinal, rule, amount, merchant, last4 = line.rstrip("\n").split("\t")
            labels[int(ordinal)] = (rule, Decimal(amount), merchant or None, last4)
    found, problems = {}, []
    extra = 0
    with open(output_path, encoding="utf-8") as f:
        for line in f:
            tx = json.loads(line)
            ordinal = ordinal_of(tx["source"].get("offset") or -1)
            if ordinal is None or ordinal not in labels:
                extra += 1
                problems.append(f"unlabelled message gave a transaction: {tx['source']['id']} ({tx['rule']})")
                continue
            if ordinal in found:
                problems.append(f"message {ordinal} gave two transactions")
            found[ordinal] = tx
    mismatched = 0
    for ordinal, want in labels.items():
        tx = found.get(ordinal)
        if tx is None:
            problems.append(f"message {ordinal} ({want[0]}): no transaction")
            continue
        got = (tx["rule"], Decimal(tx["amount"]) if tx["amount"] else None, tx["merchant"],
               (tx.get("account") or {}).get("last4"))
        if got != want:
            mismatched += 1
            problems.append(f"message {ordinal}: want {want}, got {got}")
    missing = len(labels) - len(found)
    print(f"labelled {len(labels)}, found {len(found)}, missing {missing}, mismatched {mismatched}, "
          f"unlabelled transactions {extra}")
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or not sys.argv[1].endswith(".labels.tsv"):
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
