#!/usr/bin/env python3
"""For each query of the search evaluation set, whether it shares a word with its answers.

A query shares a word with its answers when any of its words (lowercased, accents removed,
runs of 3 or more letters) is also a word of the text (with the e-mail subject), the merchant,
the category or the subcategory of a transaction whose merchant the query lists as relevant.
Queries that share no word can only be answered by meaning, not by matching words (FTS5).

    spendlex parse Tests/Fixtures/search/messages.jsonl -o /tmp/search-parsed.jsonl
    python3 scripts/search-eval-words.py /tmp/search-parsed.jsonl
        [--messages Tests/Fixtures/search/messages.jsonl] [--queries Tests/Fixtures/search/queries.jsonl]

Prints one line per query (id, language, part, the shared words or "-"), then the number of
queries sharing no word with their answers, in all and per language and part. Python 3 standard
library only.
"""
import argparse
import json
import os
import sys
import unicodedata
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "Fixtures", "search")


def fold(text):
    """Lowercase; accents removed from Latin letters only (a Devanagari vowel sign is part of
    its letter, not an accent)."""
    out = []
    for ch in unicodedata.normalize("NFD", text.lower()):
        if unicodedata.combining(ch) and out and ord(out[-1]) < 0x250:
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def words(text):
    """Runs of letters (with their combining signs) of 3 or more characters."""
    found, run = set(), []
    for ch in fold(text) + " ":
        if ch.isalpha() or unicodedata.category(ch) in ("Mn", "Mc"):
            run.append(ch)
        else:
            if len(run) >= 3:
                found.add("".join(run))
            run = []
    return found


def main():
    ap = argparse.ArgumentParser(description="Which queries share a word with their answers.")
    ap.add_argument("parsed", help="`spendlex parse` output (JSON Lines) of messages.jsonl")
    ap.add_argument("--messages", default=os.path.join(FIXTURES, "messages.jsonl"))
    ap.add_argument("--queries", default=os.path.join(FIXTURES, "queries.jsonl"))
    args = ap.parse_args()

    messages = {}
    with open(args.messages, encoding="utf-8") as f:
        for line in f:
            m = json.loads(line)
            messages[m["id"]] = (m.get("subject") or "") + "\n" + m["text"]

    # The words of every transaction, gathered per merchant.
    by_merchant = defaultdict(set)
    with open(args.parsed, encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)
            if not t.get("merchant"):
                continue
            w = by_merchant[t["merchant"]]
            w |= words(messages.get(t["source"]["id"], ""))
            for field in ("merchant", "category", "subcategory"):
                if t.get(field):
                    w |= words(t[field])

    none, total = Counter(), Counter()
    unanswered = []
    with open(args.queries, encoding="utf-8") as f:
        queries = [json.loads(line) for line in f]
    for q in queries:
        answer_words = set()
        missing = [m for m in q["relevant"] if m not in by_merchant]
        for m in q["relevant"]:
            answer_words |= by_merchant.get(m, set())
        if missing:
            unanswered.append((q["id"], missing))
        shared = sorted(words(q["query"]) & answer_words)
        key = (q["language"], q["part"])
        total[key] += 1
        if not shared:
            none[key] += 1
        print(f"{q['id']}  {q['language']:7s} {q['part']:6s} {'shares ' + ', '.join(shared) if shared else '-  shares no word'}"
              f"   [{q['query']}]")

    print()
    print(f"queries sharing no word with their answers: {sum(none.values())} of {len(queries)}")
    for lang in sorted({k[0] for k in total}):
        n = sum(v for k, v in none.items() if k[0] == lang)
        t = sum(v for k, v in total.items() if k[0] == lang)
        parts = ", ".join(f"{p} {none[(lang, p)]}/{total[(lang, p)]}" for p in ("dev", "sealed"))
        print(f"  {lang:7s} {n:3d} of {t:3d}  ({parts})")
    if unanswered:
        print("relevant merchants with no transaction in the parsed file:", file=sys.stderr)
        for qid, missing in unanswered:
            print(f"  {qid}: {missing}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
