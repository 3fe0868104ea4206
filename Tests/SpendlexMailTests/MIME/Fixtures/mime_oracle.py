#!/usr/bin/env python3
"""Reference decoding with Python's stdlib `email` package, for the differential tests
of Spendlex's MIME decoder.

Usage: mime_oracle.py FILE.eml ...      one message per file
       mime_oracle.py --mbox PATH       every message of an mbox
Prints one JSON object per message: name, subject, from (address, lower case),
message_id (without <>), date (seconds since 1970; a zone-less date read as UTC),
plain (text/plain parts joined with "\n") and html_chars (the text of the text/html
parts without whitespace and "|", since HTML-to-text styles differ; see html_text).

Parts are walked like the Swift decoder walks them: multiparts recursively,
message/* not descended into, attachments (Content-Disposition: attachment) and
non-text parts skipped, text/plain and text/html read with get_content().
"""
import calendar
import email
import email.policy
import json
import re
import sys
from html.parser import HTMLParser

SURROGATES = re.compile("[\ud800-\udfff]")


def clean(text):
    return None if text is None else SURROGATES.sub("\ufffd", text)


class TextOfHTML(HTMLParser):
    """Character data outside the elements the Swift converter drops."""
    DROPPED = {"script", "style", "title", "template", "iframe", "object", "svg", "math", "select"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.out = []

    def handle_starttag(self, tag, attrs):
        if tag in self.DROPPED:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.DROPPED and self.depth > 0:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth == 0:
            self.out.append(data)


def html_chars(html):
    parser = TextOfHTML()
    parser.feed(html)
    parser.close()
    return "".join(c for c in "".join(parser.out) if not c.isspace() and c != "|")


def walk(part, plain, html):
    if part.get_content_maintype() == "multipart":
        if part.is_multipart():
            for sub in part.get_payload():
                walk(sub, plain, html)
        return
    if part.get_content_maintype() == "message" or part.is_attachment():
        return
    ctype = part.get_content_type()
    if ctype == "text/plain":
        plain.append(part.get_content())
    elif ctype == "text/html":
        html.append(part.get_content())


def describe(name, data):
    msg = email.message_from_bytes(data, policy=email.policy.default)
    result = {"name": name}
    subject = msg["subject"]
    result["subject"] = clean(None if subject is None else str(subject))
    try:
        addresses = msg["from"].addresses if msg["from"] is not None else ()
    except Exception:
        addresses = ()
    result["from"] = clean(addresses[0].addr_spec.lower()) if addresses and addresses[0].addr_spec else None
    mid = msg["message-id"]
    if mid is not None:
        value = str(mid).strip()
        if value.startswith("<"):
            value = value[1:].split(">")[0]
        elif value.endswith(">"):
            value = value[:-1]
        value = value.strip()
        result["message_id"] = clean(value) or None
    else:
        result["message_id"] = None
    try:
        when = msg["date"].datetime if msg["date"] is not None else None
    except Exception:
        when = None
    if when is None:
        result["date"] = None
    elif when.tzinfo is None:
        result["date"] = calendar.timegm(when.timetuple())
    else:
        result["date"] = int(when.timestamp())
    plain, html = [], []
    walk(msg, plain, html)
    result["plain"] = clean("\n".join(plain)) if plain else None
    result["html_chars"] = clean("".join(html_chars(h) for h in html)) if html else None
    return result


def mbox_messages(path):
    """Split like the Swift tests: a `From ` line starts a message and is dropped;
    `>From `, `>>From `, ... lose one `>`."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    current = None
    for line in lines:
        if line.startswith(b"From "):
            if current is not None:
                yield b"\n".join(current)
            current = []
        elif current is not None:
            if re.match(rb">+From ", line):
                line = line[1:]
            current.append(line)
    if current is not None:
        yield b"\n".join(current)


def main():
    args = sys.argv[1:]
    out = sys.stdout
    if args and args[0] == "--mbox":
        items = ((str(i), data) for i, data in enumerate(mbox_messages(args[1])))
    else:
        items = ((path.rsplit("/", 1)[-1], open(path, "rb").read()) for path in args)
    for name, data in items:
        try:
            result = describe(name, data)
        except Exception as error:  # the oracle itself failed: say so, do not stop
            result = {"name": name, "error": repr(error)}
        out.write(json.dumps(result, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
