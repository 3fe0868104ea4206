#!/usr/bin/env python3
"""MIME torture set for the differential tests of Spendlex's MIME decoder.

Usage: mime_torture.py OUTDIR [--big]
Writes one NN-name.eml per case into OUTDIR (bytes exactly as listed here). With
--big, also writes 90-big-attachment.eml: a small text/plain part, a 50 MB base64
attachment (with one invalid character, so that decoding it would show), and
another small text/plain part. Python stdlib only; deterministic.
"""
import base64
import os
import quopri
import sys

OUT = sys.argv[1]
BIG = "--big" in sys.argv[2:]
os.makedirs(OUT, exist_ok=True)

CASES = []


def case(name):
    def register(fn):
        CASES.append((name, fn))
        return fn
    return register


def head(subject=b"Torture", sender=b'"Test Bank" <alerts@testbank.example>',
         date=b"Mon, 5 Feb 2024 10:00:00 +0000", msgid=b"<case@testbank.example>", extra=b""):
    return (b"Return-Path: <bounce@testbank.example>\n"
            b"Received: from mx.testbank.example (mx.testbank.example [203.0.113.5])\n"
            b"        by mx.example.org with ESMTPS id 42\n"
            b"        for <user@example.org>; Mon, 5 Feb 2024 10:00:00 +0000\n"
            b"From: " + sender + b"\n"
            b"To: user@example.org\n"
            b"Subject: " + subject + b"\n"
            b"Date: " + date + b"\n"
            b"Message-ID: " + msgid + b"\n"
            b"MIME-Version: 1.0\n" + extra)


def b64(data):
    return base64.encodebytes(data)


def qp(data):
    return quopri.encodestring(data)


@case("nested-mixed-alternative-related")
def _():
    png = b64(bytes(range(256)) * 4)
    return head(b"Your statement", extra=b'Content-Type: multipart/mixed; boundary="mix-1"\n') + (
        b"\nThis is a multi-part message in MIME format.\n"
        b"\n--mix-1\n"
        b'Content-Type: multipart/alternative; boundary="alt-2"\n'
        b"\n--alt-2\n"
        b"Content-Type: text/plain; charset=utf-8\n"
        b"Content-Transfer-Encoding: quoted-printable\n\n"
        + qp("Dear Customer,\nRs. 1,250.00 spent at CAF\u00c9 COFFEE DAY on card XX1234.\n".encode()) +
        b"\n--alt-2\n"
        b'Content-Type: multipart/related; boundary="rel-3"; type="text/html"\n'
        b"\n--rel-3\n"
        b"Content-Type: text/html; charset=utf-8\n"
        b"Content-Transfer-Encoding: 7bit\n\n"
        b"<html><body><p>Dear Customer,</p><p>Rs. 1,250.00 spent at CAF&Eacute; COFFEE DAY "
        b"on card XX1234.</p><img src=\"cid:logo\"></body></html>\n"
        b"\n--rel-3\n"
        b"Content-Type: image/png\n"
        b"Content-Transfer-Encoding: base64\n"
        b"Content-ID: <logo>\n\n" + png +
        b"\n--rel-3--\n"
        b"\n--alt-2--\n"
        b"\n--mix-1\n"
        b'Content-Type: application/pdf; name="statement.pdf"\n'
        b"Content-Transfer-Encoding: base64\n"
        b'Content-Disposition: attachment; filename="statement.pdf"\n\n'
        + b64(b"%PDF-1.4 not really a pdf\n" * 50) +
        b"\n--mix-1--\n"
        b"Epilogue text that is ignored.\n")


@case("missing-closing-boundary")
def _():
    return head(extra=b'Content-Type: multipart/alternative; boundary="b1"\n') + (
        b"\n--b1\n"
        b"Content-Type: text/plain; charset=us-ascii\n\n"
        b"INR 500.00 debited from A/c XX9876.\n"
        b"The closing boundary never comes.\n")


@case("unknown-boundary")
def _():
    # The declared boundary never appears; the body has another one.
    return head(extra=b'Content-Type: multipart/alternative; boundary="declared"\n') + (
        b"\n--actual\n"
        b"Content-Type: text/plain; charset=us-ascii\n\n"
        b"Text behind an undeclared boundary.\n"
        b"--actual--\n")


@case("multipart-without-boundary")
def _():
    return head(extra=b"Content-Type: multipart/mixed\n") + (
        b"\nJust text in a multipart with no boundary at all.\n")


@case("bad-base64")
def _():
    encoded = b64(b"Rs. 999.00 spent on card XX4321 at AMAZON.\n").replace(b"U", b"U!", 1)
    encoded = encoded[:20] + b"*\n" + encoded[20:]
    return head(extra=b"Content-Type: text/plain; charset=utf-8\n"
                b"Content-Transfer-Encoding: base64\n") + b"\n" + encoded


@case("base64-missing-padding")
def _():
    return head(extra=b"Content-Type: text/plain; charset=utf-8\n"
                b"Content-Transfer-Encoding: base64\n") + b"\nSGVsbG8gV29ybGQ\n"


@case("quoted-printable-soft-breaks")
def _():
    return head(extra=b"Content-Type: text/plain; charset=utf-8\n"
                b"Content-Transfer-Encoding: quoted-printable\n") + (
        b"\nThis line is long and is continued with a soft line break right he=\n"
        b"re, then an equals sign =3D, lower-case hex caf=c3=a9, CRLF soft break=\r\n"
        b" done.\n"
        b"A literal bad sequence =ZZ and a lone = sign stay.\n")


@case("latin1-labelled-utf8")
def _():
    return head(extra=b"Content-Type: text/plain; charset=utf-8\n"
                b"Content-Transfer-Encoding: 8bit\n") + (
        "\nCompra con tarjeta: 45,90 EUR en CAF\u00c9 PAR\u00cdS, se\u00f1or.\n".encode("latin-1"))


@case("utf8-labelled-latin1")
def _():
    return head(extra=b"Content-Type: text/plain; charset=iso-8859-1\n"
                b"Content-Transfer-Encoding: 8bit\n") + (
        "\nKartenzahlung \u00fcber 12,50 \u20ac bei B\u00c4CKEREI M\u00dcLLER.\n".encode("utf-8"))


@case("8bit-utf8-headers")
def _():
    return head(subject="Transacci\u00f3n aprobada \u20b9500".encode(),
                sender="\"Banco Se\u00f1or\" <Avisos@Banco.example>".encode()) + (
        b"Content-Type: text/plain; charset=utf-8\n\nBody.\n")


@case("8bit-latin1-headers")
def _():
    return head(subject="Operaci\u00f3n con tarjeta".encode("latin-1"),
                sender="\"Banco Espa\u00f1ol\" <avisos@banco.example>".encode("latin-1")) + (
        b"Content-Type: text/plain; charset=utf-8\n\nBody.\n")


@case("encoded-words-split")
def _():
    # "Zahlung über 12,50 € — bestätigt": the euro sign is split across two B words,
    # the rest mixes Q and B, charsets with a language suffix, across folded lines.
    euro = "\u20ac".encode()
    subject = (b"=?utf-8?Q?Zahlung_=C3=BCber_12,50_?= =?utf-8?B?" + base64.b64encode(euro[:1]) + b"?=\n"
               b" =?utf-8?B?" + base64.b64encode(euro[1:]) + b"?=\n"
               b"\t=?UTF-8*de?q?_=E2=80=94_best=C3=A4tigt?= (Ref =?iso-8859-1?q?n=B0?= 7)")
    sender = b"=?utf-8?B?" + base64.b64encode("M\u00fcller Bank".encode()) + b"?= <Info@Mueller-Bank.example>"
    return head(subject=subject, sender=sender) + b"Content-Type: text/plain\n\nBody.\n"


@case("iso-8859-1-body")
def _():
    text = "Se ha realizado una operaci\u00f3n de 1.234,56 EUR en EL CORTE INGL\u00c9S.\nAtentamente,\nBanco\n"
    return head(extra=b'Content-Type: text/plain; charset="iso-8859-1"\n'
                b"Content-Transfer-Encoding: quoted-printable\n") + b"\n" + qp(text.encode("latin-1"))


@case("windows-1252-body")
def _():
    text = "\u201cSmart\u201d quotes, an en dash \u2013 and 12 \u20ac \u2026 all in windows-1252.\n"
    return head(extra=b"Content-Type: text/plain; charset=windows-1252\n"
                b"Content-Transfer-Encoding: 8bit\n") + b"\n" + text.encode("cp1252")


@case("koi8-r-body")
def _():
    text = "\u0421\u043f\u0438\u0441\u0430\u043d\u0438\u0435 1500 \u0440\u0443\u0431. \u041a\u0430\u0440\u0442\u0430 *1234. \u041f\u042f\u0422\u0415\u0420\u041e\u0427\u041a\u0410\n"
    return head(extra=b"Content-Type: text/plain; charset=koi8-r\n"
                b"Content-Transfer-Encoding: 8bit\n") + b"\n" + text.encode("koi8-r")


@case("shift-jis-body")
def _():
    text = "\u30ab\u30fc\u30c9\u3054\u5229\u7528\u306e\u304a\u77e5\u3089\u305b\uff1a\uffe53,000 \u30a2\u30de\u30be\u30f3\n"
    return head(extra=b"Content-Type: text/plain; charset=Shift_JIS\n"
                b"Content-Transfer-Encoding: base64\n") + b"\n" + b64(text.encode("shift_jis"))


@case("gb2312-body")
def _():
    text = "\u60a8\u7684\u4fe1\u7528\u5361\u6d88\u8d39\u4eba\u6c11\u5e01 88.00 \u5143\u3002\n"
    return head(extra=b"Content-Type: text/plain; charset=gb2312\n"
                b"Content-Transfer-Encoding: base64\n") + b"\n" + b64(text.encode("gb2312"))


@case("iso-2022-jp-body")
def _():
    text = "\u3054\u5229\u7528\u91d1\u984d 5,000\u5186\n"
    return head(extra=b"Content-Type: text/plain; charset=ISO-2022-JP\n"
                b"Content-Transfer-Encoding: 7bit\n") + b"\n" + text.encode("iso2022_jp")


@case("utf-16-body")
def _():
    return head(extra=b"Content-Type: text/plain; charset=utf-16\n"
                b"Content-Transfer-Encoding: base64\n") + b"\n" + b64("Spent \u20b9 250 at CHAI POINT\n".encode("utf-16"))


@case("html-only")
def _():
    html = ("<!DOCTYPE html><html><head><title>Alert title</title>"
            "<style>td { color: red; } p > b { x: 1 }</style>"
            "<script>var x = '<p>not text</p>';</script></head>"
            "<body><!-- a comment <p>hidden</p> -->"
            "<h1>Transaction&nbsp;alert</h1>"
            "<table><tr><th>Merchant</th><th>Amount</th></tr>"
            "<tr><td>H&amp;M &mdash; Caf&eacute;</td><td>&#8377;&#x20;1,999.00</td></tr></table>"
            "<p>Card ending&nbsp;1234 &lt;debit&gt; &rsquo;ok&rsquo; &euro;5 &copy; 2024</p>"
            "<ul><li>One</li><li>Two</li></ul><br><br/>Done.</body></html>\n")
    return head(extra=b"Content-Type: text/html; charset=utf-8\n"
                b"Content-Transfer-Encoding: quoted-printable\n") + b"\n" + qp(html.encode())


@case("alternative-plain-and-html")
def _():
    return head(extra=b'Content-Type: multipart/alternative;\n boundary="----=_Part_0_123.456"\n') + (
        b"\n------=_Part_0_123.456\n"
        b"Content-Type: text/plain; charset=utf-8\n\n"
        b"USD 42.00 at STARBUCKS\n"
        b"------=_Part_0_123.456\n"
        b"Content-Type: text/html; charset=utf-8\n\n"
        b"<p>USD <b>42.00</b> at <i>STARBUCKS</i></p>\n"
        b"------=_Part_0_123.456--\n")


@case("empty-body")
def _():
    return head(extra=b"Content-Type: text/plain; charset=utf-8\n") + b"\n"


@case("headers-only")
def _():
    return head(extra=b"Content-Type: text/plain; charset=utf-8\n")


@case("crlf-everywhere")
def _():
    msg = head(subject=b"=?utf-8?q?CRLF_?=\n =?utf-8?q?message?=",
               extra=b'Content-Type: multipart/alternative; boundary="crlf"\n') + (
        b"\n--crlf\n"
        b"Content-Type: text/plain; charset=utf-8\n"
        b"Content-Transfer-Encoding: quoted-printable\n\n"
        b"Line one with a soft=\n"
        b" break.\nLine two.\n"
        b"--crlf--\n")
    return msg.replace(b"\n", b"\r\n")


@case("attached-message-not-descended")
def _():
    inner = (b"From: inner@example.org\nSubject: inner\n"
             b"Content-Type: text/plain\n\nThe attached message's secret text.\n")
    return head(extra=b'Content-Type: multipart/mixed; boundary="outer"\n') + (
        b"\n--outer\n"
        b"Content-Type: text/plain\n\n"
        b"Forwarded alert below.\n"
        b"--outer\n"
        b"Content-Type: message/rfc822\n\n" + inner +
        b"--outer--\n")


@case("multipart-signed")
def _():
    return head(extra=b'Content-Type: multipart/signed; protocol="application/pgp-signature";\n'
                b'\tmicalg=pgp-sha256; boundary="sig"\n') + (
        b"\n--sig\n"
        b"Content-Type: text/plain; charset=us-ascii\n\n"
        b"Signed alert text.\n"
        b"--sig\n"
        b"Content-Type: application/pgp-signature; name=signature.asc\n\n"
        b"-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n"
        b"--sig--\n")


def nested(depth, text):
    body = b"Content-Type: text/plain\n\n" + text + b"\n"
    for level in range(depth, 0, -1):
        b = b"n%d" % level
        body = (b'Content-Type: multipart/mixed; boundary="' + b + b'"\n\n'
                b"--" + b + b"\n" + body + b"--" + b + b"--\n")
    return body


@case("nested-five-levels")
def _():
    return head() + nested(5, b"Five levels down.")


@case("nested-too-deep")
def _():
    return head() + nested(25, b"Twenty-five levels down.")


@case("text-attachment-skipped")
def _():
    return head(extra=b'Content-Type: multipart/mixed; boundary="att"\n') + (
        b"\n--att\n"
        b"Content-Type: text/plain\n\n"
        b"Visible text.\n"
        b"--att\n"
        b'Content-Type: text/plain; name="list.txt"\n'
        b'Content-Disposition: attachment; filename="list.txt"\n\n'
        b"Attached text that must not show.\n"
        b"--att--\n")


@case("unknown-charset-label")
def _():
    return head(extra=b"Content-Type: text/plain; charset=x-no-such-charset\n") + (
        "\nUTF-8 text under an unknown label: \u00e9t\u00e9.\n".encode())


@case("no-content-type-8bit")
def _():
    return head() + "\nNo Content-Type, UTF-8 bytes: na\u00efve caf\u00e9.\n".encode()


@case("preamble-and-epilogue")
def _():
    return head(extra=b"Content-Type: multipart/mixed; boundary=simple\n") + (
        b"\nPreamble that is not text of the message.\n"
        b"--simple\n\n"
        b"Part without headers is text/plain.\n"
        b"--simple--\n"
        b"Epilogue that is not text either.\n")


@case("dates-and-addresses")
def _():
    return head(sender=b"alerts@notify.bank.example (Bank Alerts)",
                date=b"1 Jan 24 10:00 EST", msgid=b"  <ABC.123@Bank.Example>  ") + (
        b"Content-Type: text/plain\n\nBody.\n")


@case("date-two-digit-fifties")
def _():
    return head(sender=b'"Doe, John <john@fake.example>" <John.Doe@Example.COM>',
                date=b"Sun, 6 Feb 55 10:00:00 +0000") + b"Content-Type: text/plain\n\nBody.\n"


@case("date-obsolete-zone")
def _():
    return head(sender=b"Alerts: first@group.example, second@group.example;",
                date=b"5 Feb 2024 10:00 PDT") + b"Content-Type: text/plain\n\nBody.\n"


@case("base64-crlf-text")
def _():
    msg = head(extra=b"Content-Type: text/plain; charset=utf-8\n"
               b"Content-Transfer-Encoding: base64\n") + b"\n" + b64("Line 1\r\nLine 2 \u2713\r\n".encode())
    return msg.replace(b"\n", b"\r\n")


def big():
    text1 = b"Content-Type: text/plain; charset=utf-8\n\nBefore the attachment: INR 75.00 spent.\n"
    text2 = b"Content-Type: text/plain; charset=utf-8\n\nAfter the attachment.\n"
    line = b"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\n"
    payload = line * (50 * 1024 * 1024 // len(line))
    payload = payload[:1000] + b"!" + payload[1001:]
    return head(extra=b'Content-Type: multipart/mixed; boundary="big-boundary"\n') + (
        b"\n--big-boundary\n" + text1 +
        b"--big-boundary\n"
        b"Content-Type: application/octet-stream; name=blob.bin\n"
        b"Content-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=blob.bin\n\n" + payload +
        b"--big-boundary\n" + text2 +
        b"--big-boundary--\n")


for index, (name, fn) in enumerate(CASES, start=1):
    with open(os.path.join(OUT, "%02d-%s.eml" % (index, name)), "wb") as f:
        f.write(fn())
if BIG:
    with open(os.path.join(OUT, "90-big-attachment.eml"), "wb") as f:
        f.write(big())
