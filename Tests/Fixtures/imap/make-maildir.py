#!/usr/bin/env python3
"""Builds a Maildir for the IMAP end-to-end tests from an mbox (the reference corpus,
shared/bench/gen_mbox.py) plus unrelated mail, with a mix of flags.

Usage: make-maildir.py MBOX MAILDIR [--first N] [--skip N] [--unrelated N] [--tag T]
Prints one JSON line: {"messages": …, "bank": …, "other": …}. "bank" counts mail from senders
other than the corpus's newsletters and people and the unrelated mail added here: what a search
by the bank rules' senders must find (counted from the corpus's own sender list, not by Spendlex).
Flags: every third message is \\Seen, every seventh also \\Flagged, the rest unread.
"""
import json
import mailbox
import os
import sys
import time

# The corpus generator's senders that are not banks (its newsletters and personal mail).
NOT_BANKS = ("@medium.com", "@github.com", "@morningbrew.com", "@substack.com", "@gmail.com")


def unrelated(i, tag):
    senders = ["orders@shop.example", "newsletter@lists.example.org", "friend@mail.example.net",
               "noreply@calendar.example.com"]
    sender = senders[i % len(senders)]
    return (f"From: <{sender}>\nTo: me@example.org\nSubject: Unrelated {tag} {i}\n"
            f"Date: Mon, 02 Feb 2026 10:{i % 60:02d}:00 +0000\nMessage-ID: <unrelated-{tag}-{i}@example.org>\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n"
            f"Your order {i} of 3 items for $12.50 has shipped.\n")


def main():
    args = sys.argv[1:]
    source, target = args[0], args[1]
    options = dict(zip(args[2::2], args[3::2]))
    first = int(options.get("--first", "1000000000"))
    skip = int(options.get("--skip", "0"))
    extra = int(options.get("--unrelated", "0"))
    tag = options.get("--tag", "a")
    for sub in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(target, sub), exist_ok=True)
    counts = {"messages": 0, "bank": 0, "other": 0}
    stamp = int(time.time())

    def write(index, data, from_header):
        flags = "S" if index % 3 == 0 else ""
        if index % 7 == 0:
            flags = "FS" if flags else "F"
        name = f"{stamp}.{tag}{index}.spendlex-test:2,{flags}"
        with open(os.path.join(target, "cur", name), "wb") as f:
            f.write(data)
        counts["messages"] += 1
        if from_header and not any(s in from_header.lower() for s in NOT_BANKS) and "example" not in from_header:
            counts["bank"] += 1
        else:
            counts["other"] += 1

    box = mailbox.mbox(source, create=False)
    index = 0
    for position, message in enumerate(box):
        if position < skip:
            continue
        if index >= first:
            break
        data = message.as_bytes()
        # mailbox keeps the From_ line out of as_bytes(); the headers are the message's own.
        write(index, data, message.get("From", ""))
        index += 1
    for i in range(extra):
        write(index, unrelated(i, tag).encode(), "example")
        index += 1
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
