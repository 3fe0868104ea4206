#!/usr/bin/env python3
"""Writes the PDF statements of Tests/Fixtures/statements with ReportLab (Debian's
python3-reportlab, or `pip install reportlab`), laid out as banks, card issuers and wallets lay
out theirs: a bank account statement over two pages (its header repeated on each, page footers,
descriptions wrapped over several lines, opening and closing balances), a credit card statement
(charges and "CR" credits in one column, a summary box), a wallet statement (date and time on two
lines, signed amounts in rupees), a statement locked with a password, and a scanned one (an
image, no text). Personal data invented.

    apt-get install python3-reportlab && scripts/make-statement-pdfs.py
"""
import os

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "statements")
WIDTH, HEIGHT = A4


def document(name, **options):
    # invariant=1: the same bytes on every run (no creation date, no random document id).
    return canvas.Canvas(os.path.join(here, name), pagesize=A4, invariant=1, **options)


# --- A bank account statement (State Bank of India style), two pages --------------------------
# Columns: Txn Date, Value Date, Description (wrapped over up to three lines), Ref No./Cheque No.,
# Debit, Credit, Balance (amounts right-aligned under their headers).
SBI_COLUMNS = [("Txn Date", 40, "left"), ("Value Date", 95, "left"), ("Description", 150, "left"),
               ("Ref No./Cheque No.", 300, "left"), ("Debit", 450, "right"), ("Credit", 505, "right"),
               ("Balance", 565, "right")]
SBI_ROWS = [
    ("1 Nov 2026", "1 Nov 2026", ["TO TRANSFER-UPI/DR/631845220913/", "SWIGGY/ICIC/swiggy@icici/", "Payment"],
     "TRANSFER TO 4897691162091", "450.00", "", "24,550.00"),
    ("3 Nov 2026", "3 Nov 2026", ["BY TRANSFER-NEFT*HDFC0000001*", "N307260012345*ACME SOFTWARE PVT"],
     "TRANSFER FROM 3199412044302", "", "85,000.00", "1,09,550.00"),
    ("5 Nov 2026", "5 Nov 2026", ["ATM WDL-ATM CASH 4312 MG ROAD", "BANGALORE"], "", "10,000.00", "", "99,550.00"),
    ("8 Nov 2026", "8 Nov 2026", ["TO TRANSFER-UPI/DR/631990011223/", "BESCOM/YESB/bescom@ybl/Electricity"],
     "TRANSFER TO 4897691162091", "1,845.00", "", "97,705.00"),
    ("12 Nov 2026", "12 Nov 2026", ["DEBIT-ACH DR INDIAN CLEARING CORP", "HDFCMF SIP 000123"], "ACH-000123",
     "5,000.00", "", "92,705.00"),
    ("15 Nov 2026", "15 Nov 2026", ["BY TRANSFER-UPI/CR/632011223344/", "RAHUL SHARMA/SBIN/rahul@oksbi/Rent"],
     "TRANSFER FROM 4897691162091", "", "12,000.00", "1,04,705.00"),
    ("20 Nov 2026", "20 Nov 2026", ["TO TRANSFER-UPI/DR/632455667788/", "AMAZON PAY/YESB/amazon@apl/Order"],
     "TRANSFER TO 4897691162091", "2,349.00", "", "1,02,356.00"),
    ("25 Nov 2026", "25 Nov 2026", ["CHEQUE WDL-000451"], "000451", "15,000.00", "", "87,356.00"),
    ("28 Nov 2026", "28 Nov 2026", ["INTEREST CREDIT"], "", "", "312.00", "87,668.00"),
    ("30 Nov 2026", "30 Nov 2026", ["SMS CHARGES NOV 26 INCL GST"], "", "17.70", "", "87,650.30"),
]


def sbi_header(page, y):
    page.setFont("Helvetica-Bold", 8)
    for title, x, align in SBI_COLUMNS:
        (page.drawRightString if align == "right" else page.drawString)(x, y, title)


def sbi_footer(page, number, pages):
    page.setFont("Helvetica", 7)
    page.drawString(40, 40, "This is a computer generated statement and does not require a signature.")
    page.drawRightString(560, 40, f"Page {number} of {pages}")


def sbi_statement():
    page = document("sbi-account.pdf")
    page.setFont("Helvetica-Bold", 12)
    page.drawString(40, 800, "State Bank of India")
    page.setFont("Helvetica", 9)
    lines = ["Account Name        : Mr. RAHUL KUMAR", "Address             : 12 MG ROAD, BENGALURU 560001",
             "Account Number      : 00000032123456789", "Branch              : MG ROAD (IFSC SBIN0000813)",
             "Statement from 1 Nov 2026 to 30 Nov 2026", "Balance as on 1 Nov 2026 : 25,000.00"]
    y = 780
    for line in lines:
        page.drawString(40, y, line)
        y -= 13
    y -= 10
    sbi_header(page, y)
    y -= 16
    page_number = 1
    for date, value, description, reference, debit, credit, balance in SBI_ROWS:
        if y - 11 * len(description) < 70:
            sbi_footer(page, page_number, 2)
            page.showPage()
            page_number += 1
            y = 800
            sbi_header(page, y)
            y -= 16
        page.setFont("Helvetica", 7)
        page.drawString(40, y, date)
        page.drawString(95, y, value)
        page.drawString(300, y, reference)
        for text, x in ((debit, 450), (credit, 505), (balance, 565)):
            if text:
                page.drawRightString(x, y, text)
        for index, part in enumerate(description):
            page.drawString(150, y - 11 * index, part)
        y -= 11 * len(description) + 6
        if page_number == 1 and date == "12 Nov 2026":
            # The first page ends here, as a long statement's would.
            y = 60
    page.setFont("Helvetica", 9)
    page.drawString(40, y - 10, "Balance as on 30 Nov 2026 : 87,650.30")
    page.drawString(40, y - 26, "**** End of Statement ****")
    sbi_footer(page, page_number, 2)
    page.save()


# --- A credit card statement (ICICI Bank style) ------------------------------------------------
# A summary box (previous balance, payments, purchases, total due), then Date, SerNo.,
# Transaction Details, Reward Points, Amount (in Rs.): charges plain, credits with "CR".
def icici_card():
    page = document("icici-card.pdf")
    page.setFont("Helvetica-Bold", 12)
    page.drawString(40, 800, "ICICI Bank Credit Card Statement")
    page.setFont("Helvetica", 9)
    page.drawString(40, 782, "Card Number : 4315 XXXX XXXX 1234")
    page.drawString(40, 769, "Statement Date : 15/11/2026        Payment Due Date : 03/12/2026")
    page.drawString(40, 756, "Statement period : 16/10/2026 to 15/11/2026")
    # The summary: labels in one row, values in the next.
    page.setFont("Helvetica-Bold", 8)
    for title, x in (("Previous Balance", 120), ("Payments/Credits", 230), ("Purchases/Charges", 350),
                     ("Total Amount Due", 470)):
        page.drawRightString(x, 730, title)
    page.setFont("Helvetica", 8)
    for text, x in (("12,480.00", 120), ("12,780.00", 230), ("8,925.50", 350), ("8,625.50", 470)):
        page.drawRightString(x, 718, text)
    page.setFont("Helvetica-Bold", 8)
    y = 690
    for title, x, align in (("Date", 40, "left"), ("SerNo.", 95, "left"), ("Transaction Details", 160, "left"),
                            ("Reward Points", 400, "right"), ("Amount (in Rs.)", 540, "right")):
        (page.drawRightString if align == "right" else page.drawString)(x, y, title)
    rows = [
        ("18/10/2026", "8812345001", "SWIGGY BANGALORE IN", "12", "450.00"),
        ("20/10/2026", "8812345002", "AMAZON PAY INDIA PRIVATE L BANGALORE IN", "60", "2,349.00"),
        ("24/10/2026", "8812345003", "BBPS PAYMENT RECEIVED - THANK YOU", "0", "12,780.00 CR"),
        ("29/10/2026", "8812345004", "UBER INDIA SYSTEMS PVT LTD MUMBAI IN", "9", "386.50"),
        ("02/11/2026", "8812345005", "IRCTC WEB BOOKING NEW DELHI IN", "25", "1,240.00"),
        ("07/11/2026", "8812345006", "APOLLO PHARMACY CHENNAI IN", "8", "1,100.00"),
        ("11/11/2026", "8812345007", "ZOMATO LTD GURGAON IN", "6", "300.00 CR"),
        ("13/11/2026", "8812345008", "RELIANCE DIGITAL BENGALURU IN", "140", "3,700.00"),
    ]
    y -= 16
    page.setFont("Helvetica", 8)
    for date, number, details, points, amount in rows:
        page.drawString(40, y, date)
        page.drawString(95, y, number)
        page.drawString(160, y, details)
        page.drawRightString(400, y, points)
        page.drawRightString(540, y, amount)
        y -= 14
    page.setFont("Helvetica", 7)
    page.drawString(40, 60, "Minimum Amount Due : 440.00. Please pay by the due date to avoid late payment charges.")
    page.drawRightString(560, 40, "Page 1 of 1")
    page.save()


# --- A wallet statement (Paytm style) ----------------------------------------------------------
# Date & Time (the time on the line below the date), Transaction Details (the payee, then the UPI
# reference below), Your Account, Amount ("- Rs.450", "+ Rs.2,000").
def paytm_wallet():
    page = document("paytm-wallet.pdf")
    page.setFont("Helvetica-Bold", 12)
    page.drawString(40, 800, "Paytm Statement for 98XXXXXX21")
    page.setFont("Helvetica", 9)
    page.drawString(40, 784, "1 NOV'26 - 30 NOV'26")
    page.setFont("Helvetica-Bold", 8)
    y = 755
    for title, x, align in (("Date & Time", 40, "left"), ("Transaction Details", 130, "left"),
                            ("Your Account", 380, "left"), ("Amount", 555, "right")):
        (page.drawRightString if align == "right" else page.drawString)(x, y, title)
    rows = [
        ("02 Nov 2026", "09:14 AM", "Paid to Chai Point", "UPI Ref No: 630612345678", "Paytm Wallet", "- Rs.85"),
        ("05 Nov 2026", "06:40 PM", "Received from Rahul Sharma", "UPI Ref No: 630987654321", "Paytm Wallet", "+ Rs.1,200"),
        ("09 Nov 2026", "01:02 PM", "Paid to Swiggy", "UPI Ref No: 631245678901", "HDFC Bank - 12", "- Rs.450"),
        ("14 Nov 2026", "08:30 AM", "Recharge of Jio Mobile 98XXXXXX21", "Order ID: 19876543210", "Paytm Wallet", "- Rs.299"),
        ("21 Nov 2026", "07:55 PM", "Cashback Received", "Order ID: 19876543299", "Paytm Wallet", "+ Rs.25"),
    ]
    y -= 18
    for date, time, details, below, account, amount in rows:
        page.setFont("Helvetica", 8)
        page.drawString(40, y, date)
        page.drawString(130, y, details)
        page.drawString(380, y, account)
        page.drawRightString(555, y, amount)
        page.setFont("Helvetica", 7)
        page.drawString(40, y - 10, time)
        page.drawString(130, y - 10, below)
        y -= 30
    page.setFont("Helvetica", 7)
    page.drawString(40, 60, "For any queries, visit paytm.com/care. Passbook entries are subject to realisation.")
    page.drawRightString(560, 40, "Page 1 of 1")
    page.save()


# --- Statements that cannot be read -------------------------------------------------------------
def locked():
    # A password the reader does not have ("DDMMYYYY of birth", as Indian banks lock theirs).
    # Laid out as HDFC Bank's statement, whose profile (rules/statements/in/hdfc.yaml) then reads it.
    page = document("locked.pdf", encrypt="01011990")
    page.setFont("Helvetica", 8)
    page.drawString(40, 815, "Account Number : 50100012345521")
    columns = [("Date", 40, "left"), ("Narration", 90, "left"), ("Chq./Ref.No.", 260, "left"),
               ("Value Dt", 340, "left"), ("Withdrawal Amt.", 440, "right"), ("Deposit Amt.", 495, "right"),
               ("Closing Balance", 570, "right")]
    values = ["01/11/26", "UPI-SWIGGY-SWIGGY@ICICI-PAYMENT", "0000631845220913", "01/11/26", "450.00", "", "24,550.00"]
    for (title, x, align), value in zip(columns, values):
        draw = page.drawRightString if align == "right" else page.drawString
        draw(x, 800, title)
        if value:
            draw(x, 786, value)
    page.save()


def scanned():
    # A scanned page: a picture of a statement (grey bars where the lines were), no text at all.
    page = document("scanned.pdf")
    page.setFillGray(0.6)
    for index in range(20):
        page.rect(40, 780 - 18 * index, 500 - (index % 4) * 60, 8, stroke=0, fill=1)
    page.save()


if __name__ == "__main__":
    sbi_statement()
    icici_card()
    paytm_wallet()
    locked()
    scanned()
