#!/usr/bin/env python3
"""Writes the spreadsheet statements of Tests/Fixtures/statements with openpyxl (PyPI), as a
bank's or a wallet's export would be: real dates in date formats, shared strings, numbers,
an Excel error cell, the 1904 date system in one of them. Personal data invented.

    pip install openpyxl && scripts/make-statement-fixtures.py
"""
import datetime
import os

import openpyxl
from openpyxl.utils.exceptions import IllegalCharacterError  # noqa: F401 (openpyxl present)

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "statements")

# A wallet's passbook (Paytm-style): a title above the header, dates and times apart, signed
# amounts, the UPI reference in a column of its own.
book = openpyxl.Workbook()
sheet = book.active
sheet.title = "Passbook Payment History"
sheet.append(["Paytm Wallet Statement for 98XXXXXX21"])
sheet.append(["Date Range: 01 Nov 2026 - 30 Nov 2026"])
sheet.append([])
sheet.append(["Date", "Time", "Transaction Details", "Other Transaction Details (UPI ID or A/c No)", "Your Account",
              "Amount", "UPI Ref No.", "Order ID", "Remarks", "Tags", "Comment"])
rows = [
    (datetime.datetime(2026, 11, 2), "09:14:05", "Paid to Chai Point", "chaipoint@paytm", "Paytm Wallet", -85.0,
     "630612345678", "", "", "#Food", ""),
    (datetime.datetime(2026, 11, 5), "18:40:11", "Received from Rahul Sharma", "rahul.s@okaxis", "Paytm Wallet", 1200.0,
     "630987654321", "", "", "#Transfers", ""),
    (datetime.datetime(2026, 11, 21), "12:02:59", "Paid to BigBasket", "bigbasket@icici", "Paytm Wallet", -642.5,
     "632512345679", "ORD88231", "", "#Groceries", ""),
]
for row in rows:
    sheet.append(list(row))
for cell in sheet["A"][4:]:
    cell.number_format = "dd/mm/yyyy"
book.save(os.path.join(here, "paytm-wallet.xlsx"))

# A bank's export in the 1904 date system (an old Mac workbook), debit and credit columns, a
# running balance, an error cell where a formula broke, and a totals row.
book = openpyxl.Workbook()
book.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
sheet = book.active
sheet.title = "Transactions"
sheet.append(["Booking Date", "Description", "Debit", "Credit", "Balance"])
sheet.append([datetime.date(2026, 11, 3), "CARD PURCHASE TESCO STORES 2231", 23.4, None, 976.6])
sheet.append([datetime.date(2026, 11, 10), "FASTER PAYMENT FROM J SMITH", None, 150.0, 1126.6])
sheet.append([datetime.date(2026, 11, 12), "DIRECT DEBIT THAMES WATER", "#VALUE!", None, None])
sheet.append([datetime.date(2026, 11, 28), "STANDING ORDER RENT", 700.0, None, 426.6])
sheet.append([None, "Total", 723.4, 150.0, None])
for cell in sheet["A"][1:]:
    cell.number_format = "yyyy-mm-dd"
book.save(os.path.join(here, "bank-1904.xlsx"))
print("wrote paytm-wallet.xlsx and bank-1904.xlsx")
