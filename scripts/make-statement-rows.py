#!/usr/bin/env python3
"""Writes a large CSV statement for timing `spendlex import`: ROWS rows of Date (dd/mm/yyyy),
Description, Amount (signed, two decimals) and Balance (the running balance), seeded, so that
every run writes the same bytes. 1,000,000 rows make about 50 MB.

    scripts/make-statement-rows.py 1000000 /tmp/rows1m.csv
    spendlex import /tmp/rows1m.csv --country IN -o /dev/null
    ledger -f /dev/null convert /tmp/rows1m.csv --input-date-format "%d/%m/%Y" --account Assets:Bank > /dev/null
"""
import random
import sys

if len(sys.argv) != 3:
    sys.exit("usage: make-statement-rows.py ROWS OUT.csv")
rows, out = int(sys.argv[1]), sys.argv[2]
random.seed(42)
merchants = ["SWIGGY", "AMAZON PAY", "UBER TRIP", "BIGBASKET", "NETFLIX", "IRCTC", "ZOMATO", "SHELL PETROL", "DMART",
             "APOLLO PHARMACY"]
with open(out, "w") as f:
    f.write("Date,Description,Amount,Balance\n")
    balance = 1000000.0
    for i in range(rows):
        day, month, year = 1 + i % 28, 1 + (i // 28) % 12, 2020 + i // (28 * 12 * 10) % 6
        amount = round(random.uniform(1, 5000), 2)
        if random.random() < 0.2:
            balance += amount
            text = "%.2f" % amount
        else:
            balance -= amount
            text = "-%.2f" % amount
        f.write("%02d/%02d/%d,%s %d,%s,%.2f\n" % (day, month, year, random.choice(merchants), i, text, balance))
