#!/usr/bin/env python3
"""Checks `spendlex parse` output against a gen_mbox.py labels file.

    check_labels.py CORPUS.mbox.labels.tsv OUTPUT.jsonl

The corpus's Message-IDs end in ".<ordinal>@domain", which ties each transaction to
its labelled message. Every labelled message must give exactly one transaction with
the labelled amount, merchant and card; no unlabelled message may give one.
Prints counts and the first mismatches; exits 1 on any difference.
"""
import json
import re
import sys
from decimal import Decimal

COMMA_DECIMAL = {"n26_de", "santander_es", "bca_id"}
ORDINAL = re.compile(r"\.(\d+)@")


def label_amount(rule, text):
    if rule in COMMA_DECIMAL:
        text = text.replace(".", "").replace(",", ".")
    else:
        text = text.replace(",", "")
    return Decimal(text)


def main(labels_path, output_path):
    labels = {}
    with open(labels_path, encoding="utf-8") as f:
        for line in f:
            ordinal, rule, amount, merchant, card = line.rstrip("\n").split("\t")
            labels[int(ordinal)] = (rule, label_amount(rule, amount), merchant, card)
    found, extra, problems = {}, 0, []
    with open(output_path, encoding="utf-8") as f:
        for line in f:
            tx = json.loads(line)
            m = ORDINAL.search(tx["source"]["id"])
            if not m or int(m.group(1)) not in labels:
                extra += 1
                problems.append(f"unlabelled message gave a transaction: {tx['source']['id']} ({tx['rule']})")
                continue
            ordinal = int(m.group(1))
            if ordinal in found:
                problems.append(f"message {ordinal} gave two transactions")
            found[ordinal] = tx
    mismatched = 0
    for ordinal, (rule, amount, merchant, card) in labels.items():
        tx = found.get(ordinal)
        if tx is None:
            problems.append(f"message {ordinal} ({rule}): no transaction")
            continue
        got = (Decimal(tx["amount"]) if tx["amount"] else None, tx["merchant"],
               (tx.get("account") or {}).get("last4"))
        want = (amount, merchant, card)
        if got != want:
            mismatched += 1
            problems.append(f"message {ordinal} ({rule}): want {want}, got {got}")
    missing = len(labels) - len(found)
    print(f"labelled {len(labels)}, found {len(found)}, missing {missing}, mismatched {mismatched}, "
          f"unlabelled transactions {extra}")
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
