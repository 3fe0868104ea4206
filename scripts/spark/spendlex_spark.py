#!/usr/bin/env python3
"""Spendlex on Apache Spark: the same parse as one `spendlex parse --store` process, on a cluster.

    spark-submit scripts/spark/spendlex_spark.py INPUT... --output DIR [--format jsonl|parquet]
        [--binary PATH] [--rules FOLDER]... [--partitions N] [--duplicate-window MINUTES]

INPUT: mbox files or JSON Lines message files, local paths or any URI Spark reads (hdfs://,
s3a://; a folder of them is read whole, in name order), and Maildir folders (cur/ then new/) on
a file system every executor sees (Hadoop cannot name their files: they hold ':').

How it runs:
1. Every input message becomes one JSON line for the Spendlex binary: an mbox is split into its
   messages here (the separator rule of Spendlex's own reader: a From_ line after an empty line
   or before a header line; the empty line before the next From_ line dropped; mboxrd `>From `
   unquoted), each sent whole as `raw` (base64) with its file and byte offset; a Maildir file is
   one message; a JSON Lines message goes as it is, with its file and byte offset added.
2. On each partition, the binary and the rules (shipped with SparkContext.addFile, found with
   SparkFiles on the executor) run as a pure filter, `spendlex parse - --accounting`: one
   accounting record per message (transaction, ignored, unmatched or error, with why), and, for
   a transaction, its fields and its duplicate keys. The filter keeps no state between messages.
3. Downstream, the ledger's rules, with keyed reduces: a message read twice (the same id) counts
   once, the first; a card's kind is the last one its alerts named; duplicates are linked as
   `spendlex parse --store` links them (DuplicatePolicy: the same bank reference, the same
   content, or the same money over another channel within the window; the record with the most
   fields, or the statement row, is the primary). Transactions that could be duplicates of each
   other share a key (bank and reference, or amount, currency and direction); their connected
   components are found by label propagation (a few keyed reduces), and each component is
   linked in input order, as the ledger would have inserted it.
4. Out: the transactions (JSON Lines or Parquet, in input order, with `duplicate_of` the primary's
   message id and `duplicate_reason`) and the totals: `accounting.json` (`accounting/` as a text
   part when the output is a URI).

The order that decides which alert came first is the inputs' order as given, then each file's
messages in order (a Maildir: cur/ then new/, names sorted), as `spendlex parse` reads them.
"""
import argparse
import base64
import datetime
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading

# ---------------------------------------------------------------------------------------------
# Reading inputs


def is_from_line(line):
    """The shape of an mbox From_ line (Spendlex's InputShape.isFromLine): `From `, a sender,
    then a date holding a time (d:dd) and a year (four digits)."""
    n = len(line)
    if n and line[n - 1] == 0x0D:
        n -= 1
    if n < 16 or n > 1024 or not line.startswith(b"From "):
        return False
    i = 5
    while i < n and line[i] in (0x20, 0x09):
        i += 1
    sender = i
    while i < n and line[i] not in (0x20, 0x09):
        i += 1
    if i <= sender or i >= n:
        return False
    has_time = has_year = False
    digits = -1
    while i < n:
        byte = line[i]
        if 0x30 <= byte <= 0x39:
            if digits >= 0:
                digits += 1
        elif byte in (0x20, 0x09, 0x2C):
            if digits == 4:
                has_year = True
            digits = 0
        else:
            if byte == 0x3A and i + 2 < n and line[i - 1:i].isdigit() and line[i + 1:i + 3].isdigit():
                has_time = True
            digits = -1
        i += 1
    if digits == 4:
        has_year = True
    return has_time and has_year


HEADER_LINE = re.compile(rb"[\x21-\x39\x3B-\x7E]+:")
FROM_AT_LINE_START = re.compile(rb"^From ", re.M)
QUOTED_FROM = re.compile(rb"^>(>*From )", re.M)
BLANK = b" \t\r\n"


def line_at(data, at):
    """The line starting at `at`, without its line feed, and where the next one starts."""
    end = data.find(b"\n", at)
    return (data[at:], len(data)) if end < 0 else (data[at:end], end + 1)


def mbox_messages(data):
    """(offset, RFC 5322 bytes, None) for each message of an mbox, or (offset, None, reason) for
    a record that is none, as Spendlex's mbox reader splits it."""
    first = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    while first < len(data) and data[first] in BLANK:
        first += 1
    separators = []
    if data.startswith(b"From ", first):
        separators.append(first)  # the file's first From line starts a message, whatever its shape
    elif first < len(data):
        yield (0, None, "text before the first From line of the mbox")
    for match in FROM_AT_LINE_START.finditer(data, first + 1):
        at = match.start()
        line, next_start = line_at(data, at)
        if not is_from_line(line):
            continue
        after_empty = data[at - 2:at] == b"\n\n" or data[at - 3:at] == b"\n\r\n"
        if after_empty or HEADER_LINE.match(line_at(data, next_start)[0]):
            separators.append(at)
    for index, record in enumerate(separators):
        stop = separators[index + 1] if index + 1 < len(separators) else len(data)
        line_end = data.find(b"\n", record, stop)
        if line_end < 0:
            yield (record, None, "From line with no message after it")
            continue
        body_start = line_end + 1
        # The empty line the mbox writer put before the next From line is not the message's.
        end = stop
        if end - body_start >= 2 and data[end - 1] == 0x0A:
            if data[end - 2] == 0x0A:
                end -= 1
            elif end - body_start >= 3 and data[end - 2] == 0x0D and data[end - 3] == 0x0A:
                end -= 2
        message = data[body_start:end]
        if not message.strip(BLANK):
            yield (record, None, "empty message after the From line")
            continue
        yield (record, QUOTED_FROM.sub(rb"\1", message), None)


def encode(raw):
    return base64.b64encode(raw).decode("ascii")


def error_record(path, offset, reason):
    return json.dumps({"message": {"id": f"{path}:{offset}", "file": path, "offset": offset, "status": "error",
                                   "reason": reason}, "transaction": None, "duplicate_keys": None})


def split_mbox(item):
    """An mbox file's (order key, line): a JSON line for the filter, or an error record."""
    path, data = item
    for offset, message, reason in mbox_messages(bytes(data)):
        if message is None:
            yield (path, offset), ("done", error_record(path, offset, reason))
        else:
            yield (path, offset), ("parse", json.dumps({"raw": encode(message), "file": path, "offset": offset}))


def read_file(path):
    with open(path, "rb") as file:
        return path, file.read()


def maildir_message(item):
    path, data = item
    return (path, 0), ("parse", json.dumps({"raw": encode(bytes(data)), "file": path, "offset": 0}))


def json_line(path):
    def line(item):
        offset, text = item
        if not text.strip():
            return None
        try:
            message = json.loads(text)
        except ValueError:
            return (path, offset), ("done", error_record(path, offset, "not valid JSON"))
        if not isinstance(message, dict):
            return (path, offset), ("done", error_record(path, offset, "not a JSON object"))
        # Where it was read; without an id, one from there (stable from run to run).
        message.setdefault("file", path)
        message.setdefault("offset", offset)
        message.setdefault("id", f"{path}:{offset}")
        return (path, offset), ("parse", json.dumps(message))
    return line


def list_inputs(sc, paths):
    """Each input as (kind, files in reading order): files listed through Hadoop's FileSystem,
    so any URI Spark reads works."""
    jvm = sc._jvm
    conf = sc._jsc.hadoopConfiguration()

    def file_system_and_path(path):
        hpath = jvm.org.apache.hadoop.fs.Path(path)
        return hpath.getFileSystem(conf), hpath

    def children(fs, hpath):
        entries = [entry for entry in fs.listStatus(hpath)]
        entries.sort(key=lambda entry: entry.getPath().getName().encode("utf-8"))
        return entries

    inputs = []
    for path in paths:
        local = path[len("file://"):] if path.startswith("file://") else path
        if "://" not in local and any(os.path.isdir(os.path.join(local, sub)) for sub in ("cur", "new")):
            # A Maildir: its file names hold ':' ("1795744408.x0.host:2,S"), which Hadoop's Path
            # cannot take (HADOOP-3257), so it is listed and read here and by the tasks with
            # plain file calls: local mode, or a folder every executor mounts.
            files = []
            for sub in ("cur", "new"):
                folder = os.path.join(os.path.abspath(local), sub)
                if os.path.isdir(folder):
                    names = sorted((name for name in os.listdir(folder) if not name.startswith(".")),
                                   key=lambda name: name.encode("utf-8"))
                    files += [os.path.join(folder, name) for name in names
                              if os.path.isfile(os.path.join(folder, name))]
            inputs.append(("maildir", files))
            continue
        fs, hpath = file_system_and_path(path)
        if not fs.exists(hpath):
            raise SystemExit(f"error: {path}: no such file or folder")
        if fs.getFileStatus(hpath).isDirectory():
            files = [entry.getPath().toString() for entry in children(fs, hpath)
                     if entry.isFile() and not entry.getPath().getName().startswith(".")]
        else:
            files = [fs.makeQualified(hpath).toString()]
        for file in files:
            inputs.append(("jsonl" if re.search(r"\.(jsonl|ndjson|json)$", file) else "mbox", [file]))
    return inputs


def read_inputs(sc, paths):
    """An RDD of ((file, offset), (what, line)) over every input message, and each file's rank
    in reading order."""
    ranks = {}
    mbox_files, maildir_files, jsonl_files = [], [], []
    for kind, files in list_inputs(sc, paths):
        for file in files:
            ranks.setdefault(file, len(ranks))
        {"maildir": maildir_files, "mbox": mbox_files, "jsonl": jsonl_files}[kind].extend(files)
    rdds = []
    if mbox_files:
        rdds.append(sc.binaryFiles(",".join(mbox_files)).flatMap(split_mbox))
    if maildir_files:
        slices = max(1, min(len(maildir_files) // 200, sc.defaultParallelism * 4))
        rdds.append(sc.parallelize(maildir_files, slices).map(read_file).map(maildir_message))
    for file in jsonl_files:
        lines = sc.newAPIHadoopFile(file, "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
                                    "org.apache.hadoop.io.LongWritable", "org.apache.hadoop.io.Text")
        rdds.append(lines.map(json_line(file)).filter(lambda item: item is not None))
    if not rdds:
        raise SystemExit("error: no input files")
    return sc.union(rdds), ranks


# ---------------------------------------------------------------------------------------------
# The filter


def run_filter(binary_name, rules_names):
    """A partition's JSON lines through the Spendlex binary (found with SparkFiles on the
    executor), as RDD.pipe runs a command, with the binary's stderr kept for the error when it
    fails; records made upstream (an mbox's unreadable part) pass by it."""
    def run(items):
        from pyspark import SparkFiles
        passed = []
        items = iter(items)
        first = None
        for _, (what, line) in items:
            if what == "parse":
                first = line
                break
            passed.append(line)
        if first is None:  # nothing to parse: no binary to start
            yield from passed
            return
        binary = SparkFiles.get(binary_name)
        if not os.access(binary, os.X_OK):
            os.chmod(binary, 0o755)
        command = [binary, "parse", "-", "--accounting", "--quiet", "--jobs", "1"]
        for name in rules_names:
            command += ["--rules", SparkFiles.get(name)]
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        errors = []

        def feed():
            try:
                process.stdin.write(first.encode("utf-8") + b"\n")
                for _, (what, line) in items:
                    if what == "parse":
                        process.stdin.write(line.encode("utf-8") + b"\n")
                    else:
                        passed.append(line)
            finally:
                process.stdin.close()

        writer = threading.Thread(target=feed)
        reader = threading.Thread(target=lambda: errors.append(process.stderr.read()))
        writer.start()
        reader.start()
        for line in process.stdout:
            yield line.decode("utf-8").rstrip("\n")
        writer.join()
        reader.join()
        if process.wait() != 0:
            raise RuntimeError(f"spendlex exited with {process.returncode}: "
                               + errors[0].decode("utf-8", "replace")[-2000:])
        yield from passed
    return run


# ---------------------------------------------------------------------------------------------
# The ledger's rules downstream (Spendlex's DuplicatePolicy and Ledger.findDuplicate)


def parse_time(text):
    if not text:
        return None
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def epoch_day(text):
    if not text or len(text) < 10:
        return None
    try:
        return datetime.date.fromisoformat(text[:10]).toordinal()
    except ValueError:
        return None


COMMON_WORDS = {"payment", "purchase", "transfer", "credit", "debited", "credited", "online", "limited",
                "private", "services", "service", "withdrawal", "deposit", "salary", "charges", "thankyou",
                "received"}


def folded(text):
    return "".join(ch for ch in (text or "").lower() if ch.isalnum())


def distinctive_words(text):
    if not text:
        return set()
    words = re.split(r"[^\w]|_", text.lower())
    return {word for word in words if len(word) >= 6 and word not in COMMON_WORDS}


def merchants_compatible(a, b):
    x, y = folded(a), folded(b)
    if not x or not y or x in y or y in x:
        return True
    common = 0
    for p, q in zip(x, y):
        if p != q:
            break
        common += 1
    if common >= 4:
        return True
    return bool(distinctive_words(a) & distinctive_words(b))


class Row:
    __slots__ = ("order", "id", "channel", "bank", "reference", "content", "amount", "currency", "direction",
                 "last4", "merchant", "received", "received_text", "date", "time", "fields", "duplicate_of",
                 "reason")

    def __init__(self, order, record):
        t = record["transaction"]
        keys = record["duplicate_keys"]
        self.order = order
        self.id = t["source"]["id"]
        self.channel = t["source"]["kind"]
        self.bank = t["bank"]
        self.reference = t["reference"] or None
        self.content = keys["content"]
        self.amount = keys["amount"]
        self.currency = t["currency"]
        self.direction = t["direction"]
        self.last4 = (t["account"] or {}).get("last4")
        self.merchant = t["merchant"]
        self.received_text = t["source"]["received_at"]
        self.received = parse_time(self.received_text)
        self.date = t["date"]
        self.time = t["time"]
        self.fields = keys["field_count"]
        self.duplicate_of = None
        self.reason = None


def days_apart(t, row):
    mine = epoch_day(t.date) or epoch_day(t.received_text)
    theirs = epoch_day(row.date) or epoch_day(row.received_text)
    if mine is None or theirs is None:
        return None
    return abs(mine - theirs)


def seconds_apart(t, row):
    if t.received and row.received:
        return abs((t.received - row.received).total_seconds())
    if not (t.date and t.time and row.date and row.time):
        return None
    a, b = parse_time(f"{t.date}T{t.time}Z"), parse_time(f"{row.date}T{row.time}Z")
    if a is None or b is None or len(t.time) != 8 or len(row.time) != 8:
        return None
    return abs((a - b).total_seconds())


def find_duplicate(t, rows, window, statement_days):
    """The primary `t` duplicates among the rows before it, and why (Ledger.findDuplicate)."""
    def primary(row, reason):
        return (row.duplicate_of if row.duplicate_of is not None else row, reason)
    if t.reference:
        for row in rows:
            if row.bank == t.bank and row.reference == t.reference:
                return primary(row, f"same {t.bank} reference {t.reference}")
    for row in rows:
        if row.content != t.content:
            continue
        if t.reference and row.reference and t.reference != row.reference:
            continue
        if t.time is None:
            if not (t.received and row.received) or abs((t.received - row.received).total_seconds()) > window:
                continue
        return primary(row, "same bank, account, direction, amount, currency, date, time and merchant")
    if t.amount is None or t.currency is None or t.direction is None:
        return None
    for row in rows:
        if (row.amount, row.currency, row.direction) != (t.amount, t.currency, t.direction) or row.channel == t.channel:
            continue
        if t.last4 is not None and row.last4 is not None:
            if t.last4 != row.last4:
                continue
        elif row.bank != t.bank:
            continue
        if t.channel == "statement" or row.channel == "statement":
            days = days_apart(t, row)
            if not merchants_compatible(t.merchant, row.merchant) or days is None or days > statement_days:
                continue
            return primary(row, f"same account {t.last4 or '-'}, {t.direction} {t.amount} {t.currency}, "
                                f"{days} day{'' if days == 1 else 's'} apart, by {row.channel} and {t.channel}")
        if t.reference and row.reference and t.reference != row.reference:
            continue
        apart = seconds_apart(t, row)
        if not merchants_compatible(t.merchant, row.merchant) or apart is None or apart > window:
            continue
        minutes = int(math.floor(apart / 60 + 0.5))  # Swift's rounded(): halves away from zero
        return primary(row, f"same account {t.last4 or '-'}, {t.direction} {t.amount} {t.currency}, "
                            f"{minutes} min apart, by {row.channel} and {t.channel}")
    return None


def link_component(items, window, statement_days):
    """One component's (order, record) pairs, inserted in order as the ledger does: (order,
    primary's message id, reason) for each one linked."""
    rows = sorted((Row(order, record) for order, record in items), key=lambda row: row.order)
    placed = []
    for t in rows:
        found = find_duplicate(t, placed, window, statement_days)
        placed.append(t)
        if not found:
            continue
        head, reason = found
        head_is_statement = head.channel == "statement"
        takes_over = not head_is_statement if t.channel == "statement" else (
            not head_is_statement and t.fields > head.fields)
        if takes_over:
            head.duplicate_of, head.reason = t, reason
            for row in placed:
                if row.duplicate_of is head:
                    row.duplicate_of = t
            t.duplicate_of, t.reason = None, None
        else:
            t.duplicate_of, t.reason = head, reason
    return [(row.order, row.duplicate_of.id, row.reason) for row in placed if row.duplicate_of is not None]


def link_keys(record):
    """The keys two possible duplicates share: the bank and reference; the amount, currency and
    direction (every content match and every match over channels has them equal)."""
    t, keys = record["transaction"], record["duplicate_keys"]
    found = [("m", keys["amount"] or "", t["currency"] or "", t["direction"] or "")]
    if t["reference"]:
        found.append(("r", t["bank"], t["reference"]))
    return found


def components(transactions, partitions):
    """(order, component label) by label propagation: each key takes its members' smallest
    label, each transaction its keys' smallest, until nothing changes (two rounds, unless a
    reference links two amounts)."""
    members = transactions.flatMap(lambda item: [(key, item[0]) for key in link_keys(item[1])]).cache()
    labels = transactions.map(lambda item: (item[0], item[0]))
    while True:
        key_labels = members.map(lambda pair: (pair[1], pair[0])).join(labels, partitions) \
            .map(lambda item: (item[1][0], item[1][1])).reduceByKey(min, partitions)
        new_labels = members.join(key_labels, partitions).map(lambda item: item[1]).reduceByKey(min, partitions).cache()
        changed = new_labels.join(labels, partitions).filter(lambda item: item[1][0] != item[1][1]).count()
        labels = new_labels
        if changed == 0:
            return labels


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--output", required=True, help="folder for transactions and accounting.json")
    parser.add_argument("--format", choices=["jsonl", "parquet"], default="jsonl")
    parser.add_argument("--binary", default=shutil.which("spendlex") or "spendlex",
                        help="the Spendlex binary to ship to the executors (one for their platform)")
    parser.add_argument("--rules", action="append", default=[], help="rule folders to ship (default: ./rules and ./grammars)")
    parser.add_argument("--partitions", type=int, help="partitions for parsing (default: Spark's parallelism x 2)")
    parser.add_argument("--duplicate-window", type=float, default=15.0, help="minutes between alerts about one transaction")
    parser.add_argument("--statement-window-days", type=int, default=3)
    parser.add_argument("--master", help="Spark master (default: what spark-submit says, else local[*])")
    args = parser.parse_args()

    if "://" not in args.output and os.path.exists(os.path.join(args.output, "transactions")):
        raise SystemExit(f"error: {args.output}/transactions exists already: give another --output, or remove it")
    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("spendlex").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")

    binary = os.path.abspath(args.binary)
    sc.addFile(binary)
    rules = args.rules or [folder for folder in ("rules", "grammars") if os.path.isdir(folder)]
    rule_names = []
    for folder in rules:
        sc.addFile(os.path.abspath(folder), recursive=True)
        rule_names.append(os.path.basename(os.path.abspath(folder)))
    window = args.duplicate_window * 60

    messages, ranks = read_inputs(sc, args.inputs)
    ranks = sc.broadcast(ranks)
    partitions = args.partitions or sc.defaultParallelism * 2
    lines = messages.repartition(partitions).mapPartitions(
        run_filter(os.path.basename(binary), rule_names))

    def keyed(line):
        record = json.loads(line)
        message = record["message"]
        return ((ranks.value.get(message.get("file"), len(ranks.value)), message.get("offset") or 0), record)

    records = lines.map(keyed).cache()
    # A message read twice (the same id) counts once: the first (the ledger's first layer).
    firsts = records.map(lambda item: (item[1]["message"]["id"], item[0])).reduceByKey(min, partitions) \
        .map(lambda pair: (pair[1], True))
    kept = records.join(firsts, partitions).map(lambda item: (item[0], item[1][0])).cache()
    counts = kept.map(lambda item: item[1]["message"]["status"]).countByValue()
    read = records.count()
    transactions = kept.filter(lambda item: item[1]["transaction"] is not None).cache()

    # A card's kind: the last one its alerts named (the ledger's account row).
    def account(item):
        t = item[1]["transaction"]
        a = t["account"]
        return (t["bank"], a["type"], a["last4"]) if a else None

    kinds = transactions.filter(lambda item: account(item) is not None
                                and (item[1]["transaction"]["account"] or {}).get("card_kind")) \
        .map(lambda item: (account(item), (item[0], item[1]["transaction"]["account"]["card_kind"]))) \
        .reduceByKey(max, partitions).mapValues(lambda value: value[1])

    labels = components(transactions, partitions)
    links = transactions.join(labels, partitions).map(lambda item: (item[1][1], (item[0], item[1][0]))) \
        .groupByKey(partitions).flatMap(lambda group: link_component(list(group[1]), window, args.statement_window_days)) \
        .map(lambda link: (link[0], (link[1], link[2])))

    def finish(item):
        order, ((record, link), kind) = item
        t = dict(record["transaction"])
        if t["account"] and t["account"]["type"] == "card":
            t["account"] = dict(t["account"], card_kind=kind)
        t["duplicate_of"], t["duplicate_reason"] = link if link else (None, None)
        return order, t

    with_kinds = transactions.map(lambda item: (account(item), item)).leftOuterJoin(kinds, partitions) \
        .map(lambda item: (item[1][0][0], (item[1][0][1], item[1][1])))
    out = with_kinds.leftOuterJoin(links, partitions).map(lambda item: (item[0], ((item[1][0][0], item[1][1]), item[1][0][1]))) \
        .map(finish).sortByKey(numPartitions=partitions).map(lambda item: json.dumps(item[1], ensure_ascii=False))

    remote = "://" in args.output
    if not remote:
        os.makedirs(args.output, exist_ok=True)
    target = args.output.rstrip("/") + "/transactions"
    if args.format == "jsonl":
        out.saveAsTextFile(target)
    else:
        spark.read.json(out).write.parquet(target)
    linked = links.count()
    accounting = {
        "messages_read": read,
        "repeated_messages": read - sum(counts.values()),
        "messages": sum(counts.values()),
        "transactions": counts.get("transaction", 0),
        "ignored": counts.get("ignored", 0),
        "unmatched": counts.get("unmatched", 0),
        "errors": counts.get("error", 0),
        "duplicates": linked,
    }
    if remote:  # beside the transactions, as one text part Spark writes
        sc.parallelize([json.dumps(accounting)], 1).saveAsTextFile(args.output.rstrip("/") + "/accounting")
    else:
        with open(os.path.join(args.output, "accounting.json"), "w") as f:
            json.dump(accounting, f, indent=2)
            f.write("\n")
    print(json.dumps(accounting), file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
