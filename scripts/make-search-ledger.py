#!/usr/bin/env python3
"""Writes the labelled evaluation set for "search by meaning" (Tests/Fixtures/search):

  messages.jsonl  bank alerts (SMS, push notifications, e-mail) of one invented household
                  spread over twelve months (2025-11-26 to 2026-11-25), in the shapes the
                  bundled bank files read (rules/banks/<country>/*.yaml, from their parsers'
                  examples): India (HDFC, ICICI, Axis, SBI, Kotak, YES, Google Pay, PhonePe),
                  Spain (BBVA), the US (Chase, Wells Fargo, Bank of America, Citi, Capital One,
                  Discover) and Mexico (BBVA Mexico, Banorte). Everyday spending and
                  income of 29 kinds at 194 real-world merchants, written the way
                  alerts write them; English and Spanish as those banks write.
  queries.jsonl   search queries in English, Spanish and Hindi (Latin and Devanagari script),
                  each with the merchants (as `spendlex parse` outputs the `merchant` field)
                  whose transactions answer it. Relevance comes from the meaning of the query:
                  every merchant below carries its kind of spending (and a few tags and its
                  brand), and each query names the kinds, tags or brands it means. Nothing here
                  looks at what a search system returns.

Usage, from the repository root (Python 3 standard library only; deterministic, SEED below):

    python3 scripts/make-search-ledger.py                 # writes both files
    spendlex parse Tests/Fixtures/search/messages.jsonl -o /tmp/search-parsed.jsonl
    python3 scripts/make-search-ledger.py --check /tmp/search-parsed.jsonl
                                                          # share of messages parsed with the
                                                          # intended merchant, per template

Every message's intended merchant is the merchant string the generator wrote into its text; the
check regenerates them (same seed) and compares with the parser's `merchant` field by message id.

Sealed part: a query's `part` is "sealed" when the number in its id is a multiple of 3 (q003,
q006, ...), "dev" otherwise. The rule depends on the id only, and ids are given in the order
the queries are written below.

Each merchant string is used for one kind of transaction only (a refund merchant is spelled as
the refunding bank writes it and used for refunds only; money sent to people and money received
from people use different names), so a query's relevance is a list of merchant strings.
"""
import argparse
import datetime as dt
import json
import os
import random
import sys
from collections import Counter, defaultdict

SEED = 20261127
START = dt.date(2025, 11, 26)
DAYS = 365
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "..", "Tests", "Fixtures", "search")

# ---------------------------------------------------------------------------------------------
# Merchants. (country, kind, tags, merchant as written in the alert, brand, messages a year,
# amount range, modes). Modes say which alert shapes carry the transaction (see TEMPLATES).
# Kinds: groceries, food_delivery, dining (tags restaurant / cafe), taxi, fuel, transit (tags
# metro / train / bus), flights, hotels, electricity, water, gas, mobile, internet, streaming,
# movies, pharmacy, doctors, gym, clothing, electronics, marketplace, rent, insurance,
# education (tags school / university / course), p2p_out, p2p_in, salary, atm, refund.
# ---------------------------------------------------------------------------------------------
M = []


def merchant(country, kind, name, per_year, lo, hi, modes, tags=(), brand=None):
    M.append(dict(country=country, kind=kind, name=name, per_year=per_year, lo=lo, hi=hi,
                  modes=modes, tags=tuple(tags), brand=brand))


# India (INR) -------------------------------------------------------------------------------
CARD, UPI = ["card"], ["upi"]
merchant("IN", "groceries", "BIGBASKET", 16, 450, 3200, CARD, brand="bigbasket")
merchant("IN", "groceries", "DMART AVENUE SUPERMARTS", 12, 800, 5200, CARD, brand="dmart")
merchant("IN", "groceries", "Blinkit", 18, 120, 900, UPI, brand="blinkit")
merchant("IN", "groceries", "Zepto Marketplace Pvt Ltd", 14, 150, 1100, UPI, brand="zepto")
merchant("IN", "groceries", "Swiggy Instamart", 10, 180, 1200, UPI, brand="swiggy")
merchant("IN", "food_delivery", "SWIGGY", 24, 180, 950, CARD, brand="swiggy")
merchant("IN", "food_delivery", "Zomato Ltd", 22, 160, 1100, UPI, brand="zomato")
merchant("IN", "dining", "CAFE COFFEE DAY", 10, 120, 450, CARD, tags=["cafe", "coffee"], brand="ccd")
merchant("IN", "dining", "Chaayos", 10, 90, 380, UPI, tags=["cafe", "tea"], brand="chaayos")
merchant("IN", "dining", "DOMINOS PIZZA", 8, 300, 900, CARD, tags=["restaurant"], brand="dominos")
merchant("IN", "dining", "HALDIRAMS", 6, 150, 800, UPI, tags=["restaurant"])
merchant("IN", "taxi", "Uber India", 24, 90, 650, UPI, brand="uber")
merchant("IN", "taxi", "OLA CABS", 14, 110, 700, CARD, brand="ola")
merchant("IN", "taxi", "Rapido", 14, 40, 220, UPI, brand="rapido")
merchant("IN", "fuel", "INDIAN OIL COCO OUTLET", 10, 500, 3000, CARD, brand="indianoil")
merchant("IN", "fuel", "BHARAT PETROLEUM CORP", 8, 500, 3000, CARD, brand="bpcl")
merchant("IN", "transit", "Pune Metro", 14, 10, 40, UPI, tags=["metro"])
merchant("IN", "transit", "Namma Metro BMRCL", 16, 20, 60, UPI, tags=["metro"])
merchant("IN", "transit", "IRCTC", 6, 450, 3400, CARD, tags=["train"], brand="irctc")
merchant("IN", "flights", "INDIGO 6E ONLINE", 4, 4200, 14500, CARD, brand="indigo")
merchant("IN", "flights", "AIR INDIA", 2, 5500, 22000, CARD, brand="airindia")
merchant("IN", "hotels", "OYO ROOMS", 3, 1200, 4200, CARD, brand="oyo")
merchant("IN", "hotels", "TAJ HOTELS", 1, 9000, 26000, CARD, brand="taj")
merchant("IN", "electricity", "BESCOM", 12, 650, 2400, ["bill"], brand="bescom")
merchant("IN", "electricity", "TATA POWER", 12, 900, 3800, ["bill"], brand="tatapower")
merchant("IN", "water", "BWSSB", 6, 250, 900, ["bill"], brand="bwssb")
merchant("IN", "gas", "Mahanagar Gas", 6, 350, 1100, ["bill"], brand="mgl")
merchant("IN", "gas", "Indane Gas", 5, 820, 1100, ["bill"], brand="indane")
merchant("IN", "mobile", "Jio Prepaid", 12, 239, 999, ["bill"], brand="jio")
merchant("IN", "mobile", "Airtel Prepaid", 12, 199, 839, ["bill"], brand="airtel")
merchant("IN", "internet", "ACT Fibernet", 12, 799, 1499, ["bill"], brand="act")
merchant("IN", "internet", "JioFiber", 12, 699, 1199, ["bill"], brand="jio")
merchant("IN", "streaming", "NETFLIX", 12, 199, 649, ["si"], brand="netflix")
merchant("IN", "streaming", "SPOTIFY INDIA", 12, 119, 179, ["si"], brand="spotify")
merchant("IN", "movies", "PVR INOX LTD", 6, 350, 1600, CARD, brand="pvr")
merchant("IN", "movies", "BOOKMYSHOW", 6, 300, 1800, CARD, brand="bookmyshow")
merchant("IN", "pharmacy", "APOLLO PHARMACY", 10, 120, 1800, CARD, brand="apollo")
merchant("IN", "pharmacy", "MedPlus", 8, 90, 1400, UPI, brand="medplus")
merchant("IN", "doctors", "APOLLO HOSPITALS", 3, 800, 6500, CARD, brand="apollo")
merchant("IN", "doctors", "DR LAL PATHLABS", 3, 450, 3200, UPI, tags=["lab"])
merchant("IN", "gym", "CULT.FIT", 12, 999, 1999, ["si"], brand="cult")
merchant("IN", "clothing", "MYNTRA", 8, 700, 4200, CARD, brand="myntra")
merchant("IN", "clothing", "AJIO", 5, 600, 3500, CARD, brand="ajio")
merchant("IN", "electronics", "CROMA", 3, 1500, 42000, CARD, brand="croma")
merchant("IN", "marketplace", "AMAZON", 16, 250, 6500, CARD, brand="amazon")
merchant("IN", "marketplace", "FLIPKART", 10, 300, 8000, CARD, brand="flipkart")
merchant("IN", "rent", "NoBroker Rent", 12, 22000, 22000, UPI, brand="nobroker")
merchant("IN", "insurance", "LIC OF INDIA", 4, 4200, 12500, ["mandate"], brand="lic")
merchant("IN", "insurance", "STAR HEALTH INSURANCE", 1, 14800, 21500, ["mandate"])
merchant("IN", "education", "DELHI PUBLIC SCHOOL", 4, 18000, 32000, UPI, tags=["school"])
merchant("IN", "education", "BYJUS", 2, 4000, 12000, CARD, tags=["course"], brand="byjus")
for name in ["Rahul Sharma", "Priya Nair", "AMIT PATEL"]:
    merchant("IN", "p2p_out", name, 9, 100, 5000, ["p2p_out"])
for name in ["ROHIT VERMA", "Kavya Iyer"]:
    merchant("IN", "p2p_in", name, 6, 200, 6000, ["p2p_in"])
merchant("IN", "salary", "INFOSYS LIMITED", 12, 142500, 142500, ["salary"])
merchant("IN", "atm", "MG ROAD BANGALORE", 6, 2000, 10000, ["atm"])
merchant("IN", "atm", "NFS*CASH WDL*KORAMANGALA", 6, 1000, 10000, ["atm_icici"])
merchant("IN", "refund", "AMAZON SELLER SERVICES", 4, 300, 3500, ["refund"], brand="amazon")
merchant("IN", "refund", "MYNTRA DESIGNS", 3, 600, 2800, ["refund"], brand="myntra")
merchant("IN", "refund", "FLIPKART INTERNET", 3, 400, 5000, ["reversal"], brand="flipkart")

# Spain (EUR, BBVA) ---------------------------------------------------------------------------
merchant("ES", "groceries", "MERCADONA", 30, 18, 140, CARD, brand="mercadona")
merchant("ES", "groceries", "MERCADONA VALENCIA", 8, 20, 120, CARD, brand="mercadona")
merchant("ES", "groceries", "CARREFOUR MARKET", 10, 15, 110, CARD, brand="carrefour")
merchant("ES", "groceries", "LIDL", 12, 12, 90, CARD, brand="lidl")
merchant("ES", "food_delivery", "GLOVO", 12, 14, 45, CARD, brand="glovo")
merchant("ES", "food_delivery", "JUST EAT", 8, 15, 48, CARD, brand="justeat")
merchant("ES", "dining", "CAFETERIA EL SOL", 14, 2, 9, CARD, tags=["cafe", "coffee"])
merchant("ES", "dining", "TELEPIZZA", 6, 14, 38, CARD, tags=["restaurant"], brand="telepizza")
merchant("ES", "taxi", "CABIFY", 12, 7, 32, CARD, brand="cabify")
merchant("ES", "taxi", "UBER BV", 6, 7, 30, CARD, brand="uber")
merchant("ES", "fuel", "REPSOL", 12, 40, 85, CARD, brand="repsol")
merchant("ES", "fuel", "CEPSA", 8, 40, 80, CARD, brand="cepsa")
merchant("ES", "transit", "RENFE VIAJEROS", 8, 8, 95, CARD, tags=["train"], brand="renfe")
merchant("ES", "transit", "METRO DE MADRID", 12, 2, 25, CARD, tags=["metro"])
merchant("ES", "flights", "IBERIA", 3, 90, 480, CARD, brand="iberia")
merchant("ES", "flights", "VUELING AIRLINES", 3, 45, 260, CARD, brand="vueling")
merchant("ES", "hotels", "NH HOTELES", 2, 90, 320, CARD, brand="nh")
merchant("ES", "hotels", "BOOKING.COM", 3, 80, 420, CARD, brand="booking")
merchant("ES", "electricity", "IBERDROLA CLIENTES", 12, 38, 120, ["recibo"], brand="iberdrola")
merchant("ES", "electricity", "ENDESA ENERGIA", 12, 35, 115, ["recibo"], brand="endesa")
merchant("ES", "water", "CANAL DE ISABEL II", 6, 22, 60, ["recibo"])
merchant("ES", "gas", "NATURGY IBERIA", 6, 25, 95, ["recibo"], brand="naturgy")
merchant("ES", "mobile", "VODAFONE ESPANA", 12, 15, 40, ["recibo"], brand="vodafone")
merchant("ES", "internet", "MOVISTAR FIBRA", 12, 35, 65, ["recibo"], brand="movistar")
merchant("ES", "streaming", "NETFLIX.COM", 12, 8, 18, ["recibo"], brand="netflix")
merchant("ES", "streaming", "SPOTIFY", 12, 11, 11, ["recibo"], brand="spotify")
merchant("ES", "movies", "CINESA", 5, 8, 30, CARD, brand="cinesa")
merchant("ES", "movies", "YELMO CINES", 4, 8, 28, CARD, brand="yelmo")
merchant("ES", "pharmacy", "FARMACIA GARCIA", 8, 4, 45, CARD)
merchant("ES", "doctors", "CLINICA DENTAL SONRISAS", 2, 40, 380, CARD, tags=["dentist"])
merchant("ES", "doctors", "QUIRONSALUD", 3, 35, 150, CARD)
merchant("ES", "gym", "BASIC FIT", 12, 30, 30, ["recibo"], brand="basicfit")
merchant("ES", "clothing", "ZARA", 6, 19, 120, CARD, brand="zara")
merchant("ES", "clothing", "DECATHLON", 4, 10, 95, CARD, brand="decathlon")
merchant("ES", "electronics", "MEDIAMARKT", 3, 25, 650, CARD, brand="mediamarkt")
merchant("ES", "marketplace", "AMAZON.ES", 14, 9, 160, CARD, brand="amazon")
merchant("ES", "marketplace", "ALIEXPRESS", 5, 4, 45, CARD, brand="aliexpress")
merchant("ES", "rent", "GESTION INMOBILIARIA SOL SL", 12, 850, 850, ["rent_es"])
merchant("ES", "insurance", "MAPFRE SEGUROS", 4, 45, 310, ["recibo"], brand="mapfre")
merchant("ES", "education", "COLEGIO SAN JOSE", 10, 180, 180, ["recibo"], tags=["school"])
merchant("ES", "education", "ACADEMIA DE IDIOMAS LINGUA", 9, 65, 65, ["recibo"], tags=["course"])
for name in ["LAURA GARCIA PEREZ", "PABLO FERNANDEZ", "MARTA LOPEZ RUIZ"]:
    merchant("ES", "p2p_out", name, 9, 5, 60, ["bizum_out"], brand="bizum")
for name in ["LUCIA MORENO", "JAVIER DIAZ"]:
    merchant("ES", "p2p_in", name, 7, 5, 50, ["bizum_in"], brand="bizum")
merchant("ES", "salary", "INDRA SISTEMAS SA", 12, 2140.55, 2140.55, ["nomina"])
merchant("ES", "atm", "BBVA GRAN VIA 12", 5, 50, 300, ["atm"])
merchant("ES", "atm", "BBVA PASEO DE GRACIA 45", 3, 40, 200, ["atm"])
merchant("ES", "refund", "AMAZON EU", 3, 8, 90, ["refund"], brand="amazon")

# United States (USD) -------------------------------------------------------------------------
merchant("US", "groceries", "WHOLE FOODS MARKET", 18, 25, 190, CARD, brand="wholefoods")
merchant("US", "groceries", "TRADER JOE'S #552", 16, 18, 140, CARD, brand="traderjoes")
merchant("US", "groceries", "KROGER #0412", 10, 20, 160, CARD, brand="kroger")
merchant("US", "food_delivery", "DD *DOORDASH", 14, 18, 65, CARD, brand="doordash")
merchant("US", "food_delivery", "UBER *EATS", 10, 15, 60, CARD, brand="uber")
merchant("US", "dining", "STARBUCKS STORE 08812", 20, 4, 14, CARD, tags=["cafe", "coffee"], brand="starbucks")
merchant("US", "dining", "CHIPOTLE 1234", 10, 11, 28, CARD, tags=["restaurant"], brand="chipotle")
merchant("US", "dining", "MCDONALD'S F12345", 6, 7, 19, CARD, tags=["restaurant"], brand="mcdonalds")
merchant("US", "taxi", "UBER *TRIP", 18, 9, 55, CARD, brand="uber")
merchant("US", "taxi", "LYFT *RIDE", 10, 9, 48, CARD, brand="lyft")
merchant("US", "fuel", "SHELL OIL 57442123", 10, 30, 75, CARD, brand="shell")
merchant("US", "fuel", "CHEVRON 0012345", 8, 30, 80, CARD, brand="chevron")
merchant("US", "transit", "MTA*NYCT PAYGO", 16, 3, 35, CARD, tags=["metro"])
merchant("US", "transit", "AMTRAK", 3, 35, 240, CARD, tags=["train"], brand="amtrak")
merchant("US", "flights", "DELTA AIR LINES", 3, 180, 780, CARD, brand="delta")
merchant("US", "flights", "UNITED AIRLINES", 2, 150, 650, CARD, brand="united")
merchant("US", "hotels", "MARRIOTT HOTEL NYC", 2, 180, 900, CARD, brand="marriott")
merchant("US", "hotels", "AIRBNB", 2, 160, 1200, CARD, brand="airbnb")
merchant("US", "electricity", "CON EDISON", 12, 60, 240, ["ach"], brand="conedison")
merchant("US", "electricity", "PG&E", 12, 70, 260, ["ach"], brand="pge")
merchant("US", "water", "NYC WATER BOARD", 4, 60, 180, ["ach"])
merchant("US", "gas", "SOCALGAS", 10, 25, 110, ["ach"], brand="socalgas")
merchant("US", "mobile", "VERIZON WIRELESS", 12, 70, 140, ["ach"], brand="verizon")
merchant("US", "internet", "COMCAST XFINITY", 12, 55, 110, ["ach"], brand="xfinity")
merchant("US", "streaming", "SPOTIFY USA", 12, 11, 12, CARD, brand="spotify")
merchant("US", "streaming", "Netflix.com", 12, 15, 23, CARD, brand="netflix")
merchant("US", "movies", "AMC 1234 ONLINE", 5, 12, 48, CARD, brand="amc")
merchant("US", "pharmacy", "WALGREENS #9436", 10, 6, 75, CARD, brand="walgreens")
merchant("US", "pharmacy", "CVS/PHARMACY #1234", 10, 5, 80, CARD, brand="cvs")
merchant("US", "doctors", "QUEST DIAGNOSTICS", 2, 35, 220, CARD, tags=["lab"])
merchant("US", "gym", "PLANET FITNESS", 12, 25, 25, CARD, brand="planetfitness")
merchant("US", "clothing", "OLD NAVY", 4, 20, 120, CARD, brand="oldnavy")
merchant("US", "clothing", "NIKE.COM", 3, 45, 220, CARD, brand="nike")
merchant("US", "electronics", "BEST BUY 00001234", 3, 30, 1400, CARD, brand="bestbuy")
merchant("US", "electronics", "APPLE STORE R123", 2, 29, 1300, CARD, brand="apple")
merchant("US", "marketplace", "AMZN Mktp US", 18, 9, 180, CARD, brand="amazon")
merchant("US", "marketplace", "Amazon.com", 10, 12, 210, CARD, brand="amazon")
merchant("US", "rent", "OAKWOOD APARTMENTS LLC", 12, 1850, 1850, ["zelle_out"], brand="zelle")
merchant("US", "insurance", "GEICO *AUTO", 12, 118, 118, ["ach"], brand="geico")
merchant("US", "education", "STATE UNIVERSITY BURSAR", 2, 1800, 5200, ["ach"], tags=["university"])
merchant("US", "education", "COURSERA.ORG", 6, 49, 59, CARD, tags=["course"], brand="coursera")
for name in ["MICHAEL BROWN", "SARAH JOHNSON"]:
    merchant("US", "p2p_out", name, 8, 15, 300, ["zelle_out"], brand="zelle")
for name in ["VENMO *JESSICA LEE", "VENMO *RYAN CHEN"]:
    merchant("US", "p2p_out", name, 8, 10, 120, ["venmo"], brand="venmo")
for name in ["KEVIN NGUYEN", "EMILY DAVIS"]:
    merchant("US", "p2p_in", name, 6, 20, 250, ["zelle_in"], brand="zelle")
merchant("US", "salary", "ADP PAYROLL", 24, 2874.16, 2874.16, ["dd"])
merchant("US", "refund", "AMAZON MKTPL", 3, 10, 120, ["refund_bofa"], brand="amazon")
merchant("US", "refund", "TARGET 00012345", 2, 12, 90, ["refund"], brand="target")
merchant("US", "refund", "BEST BUY 00012", 2, 25, 300, ["refund_citi"], brand="bestbuy")

# Mexico (MXN) -------------------------------------------------------------------------------
merchant("MX", "groceries", "OXXO TLALPAN", 14, 35, 260, CARD, brand="oxxo")
merchant("MX", "groceries", "SORIANA HIPER", 8, 250, 1800, CARD, brand="soriana")
merchant("MX", "groceries", "BODEGA AURRERA", 8, 180, 1500, CARD, brand="aurrera")
merchant("MX", "food_delivery", "RAPPI", 10, 150, 480, CARD, brand="rappi")
merchant("MX", "dining", "TAQUERIA EL PASTOR", 8, 80, 320, CARD, tags=["restaurant"])
merchant("MX", "taxi", "DIDI MOBILITY", 10, 60, 260, CARD, brand="didi")
merchant("MX", "taxi", "UBER MX", 8, 70, 300, CARD, brand="uber")
merchant("MX", "fuel", "PEMEX GASOLINERA", 8, 500, 1100, CARD, brand="pemex")
merchant("MX", "transit", "METRO CDMX", 6, 30, 120, CARD, tags=["metro"])
merchant("MX", "flights", "AEROMEXICO", 2, 2200, 9000, CARD, brand="aeromexico")
merchant("MX", "electricity", "CFE", 6, 280, 1400, ["bill"], brand="cfe")
merchant("MX", "water", "SACMEX AGUA", 6, 150, 600, ["bill"])
merchant("MX", "mobile", "TELCEL", 12, 200, 500, ["bill"], brand="telcel")
merchant("MX", "internet", "TELMEX", 12, 389, 599, ["bill"], brand="telmex")
merchant("MX", "movies", "CINEPOLIS", 5, 90, 380, CARD, brand="cinepolis")
merchant("MX", "pharmacy", "FARMACIAS DEL AHORRO", 6, 60, 900, CARD, brand="fahorro")
merchant("MX", "doctors", "HOSPITAL ANGELES", 2, 900, 6500, CARD)
merchant("MX", "gym", "SMART FIT", 12, 499, 499, CARD, brand="smartfit")
merchant("MX", "clothing", "LIVERPOOL", 4, 450, 3800, CARD, brand="liverpool")
merchant("MX", "electronics", "STEREN", 2, 150, 1800, CARD, brand="steren")
merchant("MX", "marketplace", "MERCADO LIBRE", 8, 150, 2500, CARD, brand="mercadolibre")
merchant("MX", "rent", "ARRENDADORA POLANCO SA DE CV", 12, 14500, 14500, ["rent_mx"])
merchant("MX", "insurance", "GNP SEGUROS", 4, 1200, 3800, ["bill"], brand="gnp")
merchant("MX", "education", "UNIVERSIDAD TECMILENIO", 6, 4200, 4200, ["bill"], tags=["university"])
for name in ["JUAN PEREZ LOPEZ", "MARIA HERNANDEZ"]:
    merchant("MX", "p2p_out", name, 6, 200, 2500, ["spei_out"])
merchant("MX", "p2p_in", "ANA GOMEZ", 5, 300, 2000, ["spei_in"])
merchant("MX", "salary", "GRUPO BIMBO SA DE CV", 24, 18750, 18750, ["salary_mx"])
merchant("MX", "atm", "CAJERO BBVA REFORMA", 4, 500, 3000, ["atm"])
merchant("MX", "atm", "CAJERO BANORTE INSURGENTES", 3, 500, 2500, ["atm_banorte"])
merchant("MX", "refund", "LIVERPOOL POLANCO", 2, 300, 2500, ["refund"], brand="liverpool")


# Everyday spending is twice as frequent as written above (the figures above are for one card or
# account; the household uses several).
EVERYDAY = {"groceries", "food_delivery", "dining", "taxi", "transit", "fuel", "pharmacy", "marketplace", "p2p_out", "p2p_in"}
for _m in M:
    if _m["kind"] in EVERYDAY:
        _m["per_year"] *= 2

# ---------------------------------------------------------------------------------------------
# Formatting helpers.
# ---------------------------------------------------------------------------------------------
MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTH = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
         "October", "November", "December"]
MES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
       "octubre", "noviembre", "diciembre"]


def indian(n, decimals=True):
    """1,24,560.00: lakh grouping."""
    whole = int(round(n * 100)) // 100
    cents = int(round(n * 100)) % 100
    s = str(whole)
    if len(s) > 3:
        head, tail = s[:-3], s[-3:]
        groups = []
        while len(head) > 2:
            groups.insert(0, head[-2:])
            head = head[:-2]
        if head:
            groups.insert(0, head)
        s = ",".join(groups) + "," + tail
    return f"{s}.{cents:02d}" if decimals else s


def western(n):
    return f"{n:,.2f}"


def euro(n):
    """1.234,56"""
    return f"{n:,.2f}".replace(",", "#").replace(".", ",").replace("#", ".")


def ref12(rng):
    return str(rng.randint(5, 6)) + "".join(str(rng.randint(0, 9)) for _ in range(11))


def ampm(t):
    h = t.hour % 12 or 12
    return f"{h}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def mdy_long(d):  # Oct 2, 2026
    return f"{MON[d.month - 1]} {d.day}, {d.year}"


def month_day_year(d):  # October 2, 2026
    return f"{MONTH[d.month - 1]} {d.day}, {d.year}"


def dlt(rng, header):
    return f"{rng.choice(['VM', 'AD', 'JD', 'VK', 'AX', 'BZ', 'JM', 'TX'])}-{header}"


# ---------------------------------------------------------------------------------------------
# Alert shapes. Each takes (rng, merchant name, amount, local datetime, merchant record) and
# returns (sender, channel, subject or None, text). The shapes follow the parsers' examples in
# rules/banks/<country>/*.yaml (bank file and parser id in each comment).
# ---------------------------------------------------------------------------------------------

# India: cards
def in_hdfc_card(rng, m, a, t, rec):  # in/hdfc.yaml hdfc.card.spend
    return (dlt(rng, "HDFCBK"), "sms", None,
            f"Spent Rs.{indian(a)} On HDFC Bank Card 4410 At {m} On {t:%Y-%m-%d}:{t:%H:%M:%S}."
            f"Not You? To Block+Reissue Call 18002586161/SMS BLOCK CC 4410 to 7308080808")


def in_hdfc_card_af(rng, m, a, t, rec):  # hdfc.card.spend.amount-first
    return (dlt(rng, "HDFCBK"), "sms", None,
            f"Rs.{indian(a)} spent on HDFC Bank Card x4410 at {m} on {t:%Y-%m-%d}:{t:%H:%M:%S}."
            f"Not U? To Block & Reissue Call 18002586161/SMS BLOCK CC 4410 to 7308080808")


def in_hdfc_si(rng, m, a, t, rec):  # hdfc.card.spend.amount-first (standing instruction)
    return (dlt(rng, "HDFCBK"), "sms", None,
            f"Rs.{indian(a, decimals=False) if a == int(a) else indian(a)} without OTP/PIN HDFC Bank Card x5521 At {m} "
            f"On {t:%Y-%m-%d}:{t:%H:%M:%S}.Not U? Block&Reissue:Call 18002586161/SMS BLOCK CC 5521 to 7308080808")


def in_hdfc_email(rng, m, a, t, rec):  # hdfc.card.email
    return ("alerts@hdfcbank.net", "email", "Alert : Update on your HDFC Bank Credit Card",
            f"Dear Card Member, Thank you for using your HDFC Bank Credit Card ending 4410 for Rs {a:.2f} "
            f"at {m} on {t:%d-%m-%Y %H:%M:%S}. Authorization code:- {rng.randint(0, 999999):06d}")


def in_icici_card(rng, m, a, t, rec):  # in/icici.yaml icici.card.spend
    limit = rng.randint(40000, 240000) + rng.randint(0, 99) / 100
    if rng.random() < 0.5:
        return (dlt(rng, "ICICIT"), "sms", None,
                f"INR {indian(a)} spent using ICICI Bank Card XX7781 on {t.day:02d}-{MON[t.month - 1]}-{t:%y} on {m}. "
                f"Avl Limit: INR {indian(limit)}. If not you, call 1800 2662/SMS BLOCK 7781 to 9215676766.")
    return (dlt(rng, "ICICIB"), "sms", None,
            f"Rs {indian(a)} spent on ICICI Bank Card XX7781 on {t.day:02d}-{MON[t.month - 1]}-{t:%y} at {m}. "
            f"Avl Lmt: Rs {indian(limit)}. To dispute, call 18002662/SMS BLOCK 7781 to 9215676766.")


def in_axis_card(rng, m, a, t, rec):  # in/axis.yaml axis.card.spend
    limit = rng.randint(30000, 150000) + rng.randint(0, 99) / 100
    return (dlt(rng, "AXISBK"), "sms", None,
            f"Spent INR {indian(a)}\nAxis Bank Card no. XX2290\n{t:%d-%m-%y %H:%M:%S} IST\n{m}\n"
            f"Avl Limit: INR {indian(limit)}\nNot you? SMS BLOCK 2290 to 919951860002")


def in_sbi_card(rng, m, a, t, rec):  # in/sbi.yaml sbi.card.spend
    return (dlt(rng, "SBICRD"), "sms", None,
            f"Rs.{indian(a)} spent on your SBI Credit Card ending 6612 at {m} on {t:%d/%m/%y}. "
            f"Trxn. not done by you? Report at https://sbicard.com/Dispute")


def in_kotak_card(rng, m, a, t, rec):  # in/kotak.yaml kotak.card.spend
    limit = rng.randint(20000, 90000)
    return (dlt(rng, "KOTAKB"), "sms", None,
            f"Rs.{indian(a)} spent on Kotak Credit Card x3308 at {m} on {t:%d/%m/%Y}. "
            f"Avl limit Rs.{indian(limit)}. Not you? Call 18602662666")


# India: UPI payments (to merchants and to people)
def in_icici_upi(rng, m, a, t, rec):  # icici.upi.debit
    return (dlt(rng, "ICICIT"), "sms", None,
            f"ICICI Bank Acct XX318 debited for Rs {indian(a)} on {t.day:02d}-{MON[t.month - 1]}-{t:%y}; {m} credited. "
            f"UPI:{ref12(rng)}. Call 18002662 for dispute. SMS BLOCK 318 to 9215676766.")


def in_hdfc_upi(rng, m, a, t, rec):  # hdfc.upi.sent
    return (dlt(rng, "HDFCBK"), "sms", None,
            f"Sent Rs.{indian(a)}\nFrom HDFC Bank A/C *0714\nTo {m}\nOn {t:%d/%m/%y}\nRef {ref12(rng)}\n"
            f"Not You?\nCall 18002586161/SMS BLOCK UPI to 7308080808")


def in_sbi_upi(rng, m, a, t, rec):  # sbi.upi.debit
    return (dlt(rng, "SBIUPI"), "sms", None,
            f"Dear UPI user A/C X5519 debited by {indian(a)} on date {t.day:02d}{MON[t.month - 1]}{t:%y} trf to {m} "
            f"Refno {ref12(rng)} If not u? call-1800111109 for other services-18001234-SBI")


def in_kotak_upi(rng, m, a, t, rec):  # kotak.upi.debit
    if rng.random() < 0.5:
        return (dlt(rng, "KOTAKB"), "sms", None,
                f"Sent Rs.{indian(a)} from XX8841 to {m} on {t.day:02d}-{MON[t.month - 1]}-{t:%y}. UPI ref no. {ref12(rng)}. "
                f"Not you? Tap https://kotak.bank.in/KBANKT/Fraud to report -Kotak")
    return (dlt(rng, "KOTAKB"), "sms", None,
            f"Sent Rs.{indian(a)} from Kotak Bank AC X8841 to {m} on {t:%d-%m-%y}.UPI Ref {ref12(rng)}. Not you, kotak.com/fraud")


def in_axis_upi(rng, m, a, t, rec):  # axis.upi.account
    kind = "P2A" if rec["kind"] == "p2p_out" else "P2M"
    return (dlt(rng, "AXISBK"), "sms", None,
            f"INR {indian(a)} debited\nA/c no. XX2031\n{t:%d-%m-%y}, {t:%H:%M:%S}\nUPI/{kind}/{ref12(rng)}/{m}\n"
            f"Not you? SMS BLOCKUPI Cust ID to 919951860002\nAxis Bank")


def in_phonepe(rng, m, a, t, rec):  # in/phonepe.yaml phonepe.upi.sent
    verb = "sent" if rec["kind"] == "p2p_out" else "paid"
    return ("com.phonepe.app", "push", None,
            f"₹{indian(a, decimals=a != int(a))} {verb} to {m} from A/c XX0714 via PhonePe. UPI Ref: {ref12(rng)}")


def in_gpay(rng, m, a, t, rec):  # in/googlepay.yaml googlepay.upi.paid
    return ("com.google.android.apps.nbu.paisa.user", "push", None,
            f"You paid ₹{indian(a)} to {m} using Google Pay from A/c XX5519. UPI transaction ID: {ref12(rng)}")


# India: bills and recharges
BILL_WORDS = {"electricity": "your electricity bill", "water": "your water bill", "gas": "your gas bill",
              "mobile": "mobile recharge 98XXXXXX{n:02d}", "internet": "your broadband bill"}


def in_gpay_bill(rng, m, a, t, rec):  # googlepay.bill.payment
    what = BILL_WORDS[rec["kind"]].format(n=rng.randint(10, 99))
    return ("com.google.android.apps.nbu.paisa.user", "push", None,
            f"Paid ₹{indian(a, decimals=False) if a == int(a) else indian(a)} to {m} for {what} via Google Pay. "
            f"UPI transaction ID: {ref12(rng)}")


def in_phonepe_bill(rng, m, a, t, rec):  # phonepe.bill.payment
    what = {"electricity": "consumer no", "water": "consumer no", "gas": "BP no", "mobile": "mobile no",
            "internet": "account no"}[rec["kind"]]
    return ("com.phonepe.app", "push", None,
            f"Your {m} bill payment of ₹{indian(a, decimals=a != int(a))} for {what} {rng.randint(100000, 9999999)} "
            f"is successful on PhonePe. Txn ID: T{t:%y%m%d}{rng.randint(10**12, 10**13 - 1)}")


def in_icici_mandate(rng, m, a, t, rec):  # icici.mandate.debit
    return (dlt(rng, "ICICIT"), "sms", None,
            f"Dear Customer, the mandate of INR {indian(a)} raised by {m} on {t.day:02d}-{MON[t.month - 1]}-{t:%y} "
            f"and is successfully redeemed through RRN {ref12(rng)} -ICICI Bank.")


# India: money in, salary, cash, refunds
def in_gpay_in(rng, m, a, t, rec):  # googlepay.upi.received
    return ("com.google.android.apps.nbu.paisa.user", "push", None,
            f"{m} paid you ₹{indian(a)} on Google Pay. UPI transaction ID: {ref12(rng)}")


def in_kotak811_in(rng, m, a, t, rec):  # kotak.upi.credit.811
    return (dlt(rng, "KOTAKB"), "sms", None,
            f"Received Rs.{indian(a)} from {m} in your Kotak811 a/c XX8841 on {t.day:02d}-{MON[t.month - 1]}-{t:%y}. "
            f"UPI ref no. {ref12(rng)}. View balance: https://kotak.bank.in/KBANKT/Fraud -Kotak")


def in_icici_in(rng, m, a, t, rec):  # icici.account.credit.payer
    return (dlt(rng, "ICICIB"), "sms", None,
            f"Your ICICI Bank Account 0318 has been credited with Rs {a:.2f} on {t:%Y-%m-%d} at {t:%H:%M:%S} "
            f"from {m}. Ref No {ref12(rng)}.")


def in_salary_icici(rng, m, a, t, rec):  # icici.account.info.neft
    bal = a + rng.randint(5000, 90000)
    return (dlt(rng, "ICICIB"), "sms", None,
            f"ICICI Bank Account XX318 credited:Rs. {indian(a)} on {t.day:02d}-{MON[t.month - 1]}-{t:%y}. "
            f"Info NEFT-CITIN{t:%y}{rng.randint(10**9, 10**10 - 1)}-{m} . Available Balance is Rs. {indian(bal)}.")


def in_salary_hdfc(rng, m, a, t, rec):  # hdfc.neft.credit
    bal = a + rng.randint(5000, 90000)
    return (dlt(rng, "HDFCBK"), "sms", None,
            f"Update! INR {indian(a)} deposited in HDFC Bank A/c XX0714 on {t.day:02d}-{MON[t.month - 1].upper()}-{t:%y} "
            f"for NEFT Cr-CITI0000001-{m}-ANANYA KRISHNAN-CITIN{t:%y}{rng.randint(10**9, 10**10 - 1)}.Avl bal INR {indian(bal)}. "
            f"Cheque deposits in A/C are subject to clearing")


def in_atm_yes(rng, m, a, t, rec):  # in/yes.yaml yes.atm.withdrawal
    a = round(a / 500) * 500 or 500
    bal = rng.randint(8000, 60000)
    return (dlt(rng, "YESBNK"), "sms", None,
            f"INR {indian(a)} withdrawn at ATM {m} from YES BANK A/c XX6650 on {t:%d-%m-%Y %H:%M:%S}. Avl Bal INR {indian(bal)}")


def in_atm_icici(rng, m, a, t, rec):  # icici.account.info (ATM narration)
    a = round(a / 500) * 500 or 500
    bal = rng.randint(8000, 60000)
    return (dlt(rng, "ICICIT"), "sms", None,
            f"ICICI Bank Acc XX318 debited Rs. {indian(a)} on {t.day:02d}-{MON[t.month - 1]}-{t:%y} Info{m}.Avl Bal Rs. {indian(bal)}."
            f"To dispute call 18002662 or SMS BLOCK 318 to 9215676766")


def in_refund_icici(rng, m, a, t, rec):  # icici.card.refund
    due = rng.randint(3000, 60000)
    return (dlt(rng, "ICICIT"), "sms", None,
            f"{m} refund of Rs {indian(a)} credited to ICICI Bank Credit Card XX7781 on "
            f"{t.day:02d}-{MON[t.month - 1].upper()}-{t:%y}. Revised total due Rs {indian(due)}, minimum due Rs {indian(due * 0.05)}")


def in_reversal_hdfc(rng, m, a, t, rec):  # hdfc.card.reversal
    return (dlt(rng, "HDFCBK"), "sms", None,
            f"Transaction Reversed!On HDFC Bank DEBIT/ATM Card xx9021 Amt: Rs.{indian(a)} By {m} On {t:%Y-%m-%d}:{t:%H:%M:%S}")


# Spain (BBVA España, in/es/bbva.yaml)
def es_sender(rng):
    return rng.choice([("BBVA", "sms"), ("com.bbva.bbvacontigo", "push"), ("com.bbva.bbvacontigo", "push")])


def es_card(rng, m, a, t, rec):  # bbva.card.purchase
    s, ch = es_sender(rng)
    r = rng.random()
    if r < 0.4:
        bal = rng.randint(300, 4000) + rng.randint(0, 99) / 100
        return (s, ch, None, f"BBVA: Compra con tu tarjeta ****3021 en {m} por {euro(a)} EUR. Saldo disponible: {euro(bal)} EUR")
    if r < 0.75:
        return (s, ch, None, f"Has pagado {euro(a)} € en {m} con tu tarjeta ·3021.")
    return (s, ch, None, f"BBVA: Compra de {euro(a)} EUR en {m}")


def es_recibo(rng, m, a, t, rec):  # bbva.direct_debit
    s, ch = es_sender(rng)
    if rng.random() < 0.6:
        return (s, ch, None, f"BBVA: Recibo de {euro(a)} € de {m} cargado en tu cuenta ·7702")
    return (s, ch, None, f"Cargo de recibo de {euro(a)} EUR de {m} pagado")


CONCEPTOS = ["Cena", "Regalo", "Cumple", "Entradas concierto", "Comida", "Loteria", "Taxi", "Cafes", "Cervezas",
             "Bote piso", "Gasolina viaje", "Regalo boda"]


def es_bizum_out(rng, m, a, t, rec):  # bbva.bizum.out
    s, ch = es_sender(rng)
    c = rng.choice(CONCEPTOS)
    if rng.random() < 0.6:
        return (s, ch, None, f"Has enviado un Bizum de {euro(a)} € a {m}. Concepto: {c}")
    return (s, ch, None, f"Bizum enviado a {m} por {euro(a)} €. Concepto: {c}")


def es_bizum_in(rng, m, a, t, rec):  # bbva.bizum.in
    s, ch = es_sender(rng)
    c = rng.choice(CONCEPTOS)
    if rng.random() < 0.6:
        return (s, ch, None, f"Bizum recibido de {m} por {euro(a)} €. Concepto: {c}")
    return (s, ch, None, f"Has recibido un Bizum de {euro(a)} € de {m}")


def es_rent(rng, m, a, t, rec):  # bbva.transfer.out
    s, ch = es_sender(rng)
    return (s, ch, None, f"Has enviado una transferencia de {euro(a)} € a {m}. Concepto: Alquiler {MES[t.month - 1]}")


def es_nomina(rng, m, a, t, rec):  # bbva.salary
    s, ch = es_sender(rng)
    if rng.random() < 0.5:
        return (s, ch, None, f"BBVA: Tu nómina de {euro(a)} € de {m} ya está en tu cuenta")
    return (s, ch, None, f"BBVA: Has recibido una transferencia de {euro(a)} € de {m}. Concepto: NOMINA {MES[t.month - 1].upper()}")


def es_atm(rng, m, a, t, rec):  # bbva.atm
    s, ch = es_sender(rng)
    a = round(a / 10) * 10 or 20
    return (s, ch, None, f"BBVA: Has sacado {euro(a)} € en el cajero {m}")


def es_refund(rng, m, a, t, rec):  # bbva.card.refund
    s, ch = es_sender(rng)
    return (s, ch, None, f"BBVA: Devolución de {euro(a)} € de {m} en tu tarjeta ·3021")


# United States
def us_chase_spend(rng, m, a, t, rec):  # us/chase.yaml chase.card.spend
    return ("no.reply.alerts@chase.com", "email", f"Your ${western(a)} transaction with {m}",
            f"You spent ${western(a)} at {m} with your Chase Sapphire card ending in 4821. Date {mdy_long(t)}")


def us_chase_txn(rng, m, a, t, rec):  # chase.card.transaction
    return ("no.reply.alerts@chase.com", "email", f"Your ${western(a)} transaction with {m}",
            f"You made a ${western(a)} transaction with {m} on {mdy_long(t)} at {ampm(t)} ET.\n"
            f"Account: Sapphire Preferred credit card (...4821)\nDo not reply to this message.")


def us_wf_debit(rng, m, a, t, rec):  # us/wellsfargo.yaml wellsfargo.card.debit_purchase
    return ("93557", "sms", None,
            f"Wells Fargo: Your Wells Fargo Debit Card ending in 2115 was used for a purchase of ${western(a)} at {m} "
            f"on {t:%m/%d/%y}.")


def us_wf_credit(rng, m, a, t, rec):  # wellsfargo.card.credit_purchase
    return ("alerts@notify.wellsfargo.com", "email", "Wells Fargo card purchase",
            f"Your credit card was used for a purchase over $1.00.\n\nYou made a purchase of ${western(a)} with credit card ...8899.\n\n"
            f"Merchant: {m}\nDate: {t:%m/%d/%Y}")


def us_citi(rng, m, a, t, rec):  # us/citi.yaml citi.card.purchase
    return ("692484", "sms", None,
            f"Citi Alert: A ${western(a)} transaction was made at {m} on card ending in 0569. View details at citi.com/citimobileapp")


def us_capone(rng, m, a, t, rec):  # us/capitalone.yaml capitalone.card.purchase_sms
    return ("227898", "sms", None,
            f"Capital One: A charge or hold for ${western(a)} on {month_day_year(t)} was placed on your Savor Credit Card (8385) "
            f"at {m}. Std carrier chrges apply")


def us_discover(rng, m, a, t, rec):  # us/discover.yaml discover.card.transaction_sms
    return ("347268", "sms", None,
            f"Discover Card Alert: A transaction of ${western(a)} at {m} on {month_day_year(t)}. No Action needed. "
            f"See it at https://app.discover.com/ACTVT. Text STOP to end")


def us_bofa(rng, m, a, t, rec):  # us/bofa.yaml bofa.card.purchase (merchant slot [^\n*]: no '*' merchants)
    return ("onlinebanking@ealerts.bankofamerica.com", "email", "Credit card transaction exceeds alert limit you set",
            f"Credit card transaction exceeds alert limit you set\nCustomized Cash Rewards Visa Signature ending in 3057\n"
            f"Amount: ${western(a)}\nDate: {month_day_year(t)}\nWhere: {m}\nView details")


def us_ach(rng, m, a, t, rec):  # chase.account.ach_debit, bofa/citi/capitalone .account.withdrawal
    r = rng.random()
    if r < 0.3:
        return ("no.reply.alerts@chase.com", "email", "Your ACH debit has posted",
                f"Your ${western(a)} ACH debit to {m} posted to your account ending in 1234.")
    if r < 0.55:
        return ("onlinebanking@ealerts.bankofamerica.com", "email", "ACH withdrawal",
                f"BofA: An ACH withdrawal of ${western(a)} was made from your checking account ending in 4455 to {m} on {t:%m/%d/%Y}.")
    if r < 0.8:
        return ("692484", "sms", None,
                f"Citi Alert: An ACH withdrawal of ${western(a)} to {m} was posted from your account ending in 4455.")
    return ("227898", "sms", None,
            f"Capital One: An ACH withdrawal of ${western(a)} to {m} posted from your 360 Checking account ending in 1234.")


def us_zelle_out(rng, m, a, t, rec):  # chase/bofa/wellsfargo/citi zelle.sent
    r = rng.random()
    if r < 0.3:
        return ("no.reply.alerts@chase.com", "email", f"You sent ${western(a)} to {m}",
                f"You sent ${western(a)} to {m} with Zelle® from your account ending in 1234 on {mdy_long(t)}.")
    if r < 0.55:
        return ("onlinebanking@ealerts.bankofamerica.com", "email", "Zelle payment sent",
                f"Zelle(R) payment of ${western(a)} to {m} has been sent\nSent from account ending in 7422")
    if r < 0.8:
        return ("93557", "sms", None, f"Wells Fargo: You sent ${western(a)} to {m} with Zelle(R) from your checking account ...2115.")
    return ("692484", "sms", None, f"Citi Alert: You sent ${western(a)} to {m} with Zelle® from account ending in 4455.")


def us_zelle_in(rng, m, a, t, rec):  # chase/wellsfargo/bofa zelle.received
    r = rng.random()
    if r < 0.4:
        return ("no.reply.alerts@chase.com", "email", f"You received money with Zelle from {m}",
                f"Chase: {m} sent you ${western(a)} with Zelle®. It's in your account ending in 1234.")
    if r < 0.7:
        return ("93557", "sms", None,
                f"{m} sent you ${western(a)} with Zelle(R) and it was deposited into your checking account ...2115.")
    return ("onlinebanking@ealerts.bankofamerica.com", "email", "You received money with Zelle",
            f"{m} sent you ${western(a)} with Zelle(R)\nDeposited to account ending in 7422")


def us_venmo(rng, m, a, t, rec):  # Venmo paid by debit card: wellsfargo.card.debit_purchase / citi.card.purchase
    if rng.random() < 0.5:
        return us_wf_debit(rng, m, a, t, rec)
    return us_citi(rng, m, a, t, rec)


def us_dd(rng, m, a, t, rec):  # chase/wellsfargo/bofa direct deposit
    r = rng.random()
    if r < 0.4:
        return ("no.reply.alerts@chase.com", "email", "Your direct deposit has posted",
                f"You have a ${western(a)} direct deposit from {m} in your account ending in 1234.")
    if r < 0.7:
        return ("alerts@notify.wellsfargo.com", "email", "You just got paid!",
                f"You just got paid! A direct deposit of ${western(a)} from {m} has been deposited into your account on {t:%m/%d/%Y}.")
    return ("onlinebanking@ealerts.bankofamerica.com", "email", "Receipt: Direct Deposit Received",
            f"Direct deposit received\nAccount: Adv Plus Banking - 2222\nFrom: {m}\nAmount: ${western(a)}\nDate: {month_day_year(t)}")


def us_refund_chase(rng, m, a, t, rec):  # chase.card.refund
    return ("no.reply.alerts@chase.com", "email", "Your refund has posted",
            f"Chase: You received a ${western(a)} credit from {m} on {mdy_long(t)}.")


def us_refund_bofa(rng, m, a, t, rec):  # bofa.card.refund
    return ("onlinebanking@ealerts.bankofamerica.com", "email", "We've credited your account",
            f"We've credited your account\nCustomized Cash Rewards Visa Signature ending in 3057\nAmount:\n${western(a)}\n"
            f"Date of credit:\n{month_day_year(t)}\nMerchant:\n{m}\nView account activity")


def us_refund_citi(rng, m, a, t, rec):  # citi.card.refund
    return ("692484", "sms", None, f"Citi Alert: A ${western(a)} credit from {m} was posted to card ending in 0569.")


# Mexico
def mx_card(rng, m, a, t, rec):  # mx/bbvamx.yaml bbvamx.card.purchase, mx/banorte.yaml banorte.card.purchase
    if rng.random() < 0.55:
        return ("BBVAMX", "sms", None,
                f"BBVA: Compra aprobada por ${western(a)} en {m} con tu tarjeta terminación 1290 el {t:%d/%m/%Y} a las {t:%H:%M}.")
    return ("BANORTE", "sms", None,
            f"Banorte: Se realizó una compra por ${western(a)} MXN en {m} con tu tarjeta terminación 7764 el {t:%d/%m/%y} {t:%H:%M}.")


def mx_bill(rng, m, a, t, rec):  # bbvamx.bill.payment, banorte.bill.payment
    r = rng.random()
    if r < 0.35:
        return ("BBVAMX", "sms", None, f"BBVA: Pago de servicio {m} por ${western(a)} realizado con éxito.")
    if r < 0.6:
        return ("BBVAMX", "sms", None, f"BBVA: Pagaste {m} por ${western(a)} MXN")
    return ("BANORTE", "sms", None, f"Banorte: Pago de {m} por ${western(a)} aplicado con éxito.")


def mx_spei_out(rng, m, a, t, rec):  # bbvamx.spei.out, banorte.spei.out
    if rng.random() < 0.5:
        return ("BBVAMX", "sms", None,
                f"BBVA: Enviaste una transferencia SPEI por ${western(a)} a {m}. Clave de rastreo: BBVA{rng.randint(10**8, 10**9 - 1)}")
    return ("BANORTE", "sms", None,
            f"Banorte: Enviaste una transferencia SPEI por ${western(a)} MXN a {m}. Clave de rastreo: BNET{rng.randint(10**8, 10**9 - 1)}")


def mx_rent(rng, m, a, t, rec):  # bbvamx.spei.out with the payer's concept
    return ("BBVAMX", "sms", None,
            f"BBVA: Enviaste una transferencia SPEI por ${western(a)} a {m}. Clave de rastreo: BBVA{rng.randint(10**8, 10**9 - 1)}. "
            f"Concepto: RENTA {MES[t.month - 1].upper()}")


def mx_spei_in(rng, m, a, t, rec):  # bbvamx.spei.in, banorte.spei.in
    if rng.random() < 0.5:
        return ("BBVAMX", "sms", None, f"BBVA: Recibiste una transferencia SPEI por ${western(a)} de {m} en tu cuenta *0451.")
    return ("BANORTE", "sms", None,
            f"Banorte: Recibiste una transferencia SPEI por ${western(a)} de {m}. Clave de rastreo: SPEI{rng.randint(10**6, 10**7 - 1)}")


def mx_salary(rng, m, a, t, rec):  # banorte.spei.in (payroll)
    return ("BANORTE", "sms", None,
            f"Banorte: Recibiste una transferencia SPEI por ${western(a)} MXN de {m}. Clave de rastreo: NOM{rng.randint(10**6, 10**7 - 1)}. "
            f"Concepto: PAGO DE NOMINA")


def mx_atm(rng, m, a, t, rec):  # bbvamx.atm.withdrawal
    a = round(a / 100) * 100 or 500
    return ("BBVAMX", "sms", None, f"BBVA: Retiro en cajero por ${western(a)} con tu tarjeta *1290 en {m}.")


def mx_atm_banorte(rng, m, a, t, rec):  # banorte.atm.withdrawal
    a = round(a / 100) * 100 or 500
    return ("BANORTE", "sms", None, f"Banorte: Retiro de efectivo por ${western(a)} en {m} con tu tarjeta terminación 7764.")


def mx_refund(rng, m, a, t, rec):  # bbvamx.card.refund, banorte.card.refund
    if rng.random() < 0.5:
        return ("BBVAMX", "sms", None, f"BBVA: Devolución por ${western(a)} de {m} a tu tarjeta terminación 1290.")
    return ("BANORTE", "sms", None, f"Banorte: Se aplicó una devolución por ${western(a)} de {m} a tu tarjeta terminación 7764.")


TEMPLATES = {
    ("IN", "card"): [in_hdfc_card, in_hdfc_card_af, in_hdfc_email, in_icici_card, in_axis_card, in_sbi_card, in_kotak_card],
    ("IN", "upi"): [in_icici_upi, in_hdfc_upi, in_sbi_upi, in_kotak_upi, in_axis_upi, in_phonepe, in_gpay],
    ("IN", "si"): [in_hdfc_si],
    ("IN", "bill"): [in_gpay_bill, in_phonepe_bill],
    ("IN", "mandate"): [in_icici_mandate],
    ("IN", "p2p_out"): [in_icici_upi, in_hdfc_upi, in_sbi_upi, in_kotak_upi, in_axis_upi, in_phonepe, in_gpay],
    ("IN", "p2p_in"): [in_gpay_in, in_kotak811_in, in_icici_in],
    ("IN", "salary"): [in_salary_icici, in_salary_hdfc],
    ("IN", "atm"): [in_atm_yes],
    ("IN", "atm_icici"): [in_atm_icici],
    ("IN", "refund"): [in_refund_icici],
    ("IN", "reversal"): [in_reversal_hdfc],
    ("ES", "card"): [es_card],
    ("ES", "recibo"): [es_recibo],
    ("ES", "bizum_out"): [es_bizum_out],
    ("ES", "bizum_in"): [es_bizum_in],
    ("ES", "rent_es"): [es_rent],
    ("ES", "nomina"): [es_nomina],
    ("ES", "atm"): [es_atm],
    ("ES", "refund"): [es_refund],
    ("US", "card"): [us_chase_spend, us_chase_txn, us_wf_debit, us_wf_credit, us_citi, us_capone, us_discover, us_bofa],
    ("US", "ach"): [us_ach],
    ("US", "zelle_out"): [us_zelle_out],
    ("US", "zelle_in"): [us_zelle_in],
    ("US", "venmo"): [us_venmo],
    ("US", "dd"): [us_dd],
    ("US", "refund"): [us_refund_chase],
    ("US", "refund_bofa"): [us_refund_bofa],
    ("US", "refund_citi"): [us_refund_citi],
    ("MX", "card"): [mx_card],
    ("MX", "bill"): [mx_bill],
    ("MX", "spei_out"): [mx_spei_out],
    ("MX", "rent_mx"): [mx_rent],
    ("MX", "spei_in"): [mx_spei_in],
    ("MX", "salary_mx"): [mx_salary],
    ("MX", "atm"): [mx_atm],
    ("MX", "atm_banorte"): [mx_atm_banorte],
    ("MX", "refund"): [mx_refund],
}

# Hours from UTC (the local time the alert's text states; a fixed offset per country is enough:
# every alert is sent between 07:00 and 22:00, so no date moves).
UTC_OFFSET = {"IN": dt.timedelta(hours=5, minutes=30), "ES": dt.timedelta(hours=1),
              "US": dt.timedelta(hours=-5), "MX": dt.timedelta(hours=-6)}


def schedule(rng, rec):
    """The local datetimes of a merchant's transactions over the year: monthly payments on a
    steady day of the month, the rest spread at random."""
    n = rec["per_year"]
    days = []
    if rec["kind"] in ("electricity", "mobile", "internet", "streaming", "gym", "rent", "salary", "insurance",
                       "education", "water", "gas") and n in (4, 6, 12, 24):
        step = 12 // n if n <= 12 else None
        dom = rng.randint(1, 26)
        start_month = rng.randint(0, (step or 1) - 1)
        months = [(START.replace(day=1) + dt.timedelta(days=32 * i)).replace(day=1) for i in range(13)]
        if n == 24:
            for mo in months[1:13]:
                days += [mo.replace(day=1), mo.replace(day=15)]
        else:
            for mo in months[1 + start_month:13:step]:
                days.append(mo.replace(day=dom))
    else:
        days = [START + dt.timedelta(days=rng.randrange(DAYS)) for _ in range(n)]
    out = []
    for d in sorted(days):
        t = dt.datetime(d.year, d.month, d.day, rng.randint(7, 21), rng.randint(0, 59), rng.randint(0, 59))
        out.append(t)
    return out


def amount(rng, rec):
    lo, hi = rec["lo"], rec["hi"]
    if lo == hi:
        return float(lo)
    a = rng.uniform(lo, hi)
    if rec["country"] == "IN" and rng.random() < 0.5:
        return float(round(a))
    return round(a, 2)


def generate():
    rng = random.Random(SEED)
    rows = []
    for rec in M:
        for t in schedule(rng, rec):
            mode = rng.choice(rec["modes"])
            # bofa.card.purchase reads no merchant with a '*' ("UBER *TRIP"): its slot, [^\n*]+?,
            # stops at the bold markers of the e-mail; such merchants go to the other banks' shapes.
            fns = [f for f in TEMPLATES[(rec["country"], mode)] if not (f is us_bofa and "*" in rec["name"])]
            fn = rng.choice(fns)
            a = amount(rng, rec)
            sender, channel, subject, text = fn(rng, rec["name"], a, t, rec)
            received = t - UTC_OFFSET[rec["country"]] + dt.timedelta(seconds=rng.randint(3, 90))
            rows.append(dict(t=t, received=received, sender=sender, channel=channel, subject=subject, text=text,
                             merchant=rec["name"], template=fn.__name__, rec=rec))
    rows.sort(key=lambda r: (r["received"], r["merchant"]))
    messages = []
    for i, r in enumerate(rows, 1):
        prefix = {"sms": "sms", "push": "push", "email": "mail"}[r["channel"]]
        r["id"] = f"{prefix}-{i:05d}"
        msg = {"id": r["id"], "sender": r["sender"], "received_at": r["received"].strftime("%Y-%m-%dT%H:%M:%SZ"),
               "channel": r["channel"]}
        if r["subject"]:
            msg["subject"] = r["subject"]
        msg["text"] = r["text"]
        messages.append(msg)
    return rows, messages


# ---------------------------------------------------------------------------------------------
# Queries. Each names what it means: kinds (every merchant of those kinds), tags (merchants of
# a kind with one of the tags), brands (every merchant of that brand), or a combination
# ("brand and kind"). Written from the meaning of the words; the part is set by the id rule.
# ---------------------------------------------------------------------------------------------
Q = []


def query(text, lang, kinds=(), tags=(), brands=(), brand_kinds=None):
    Q.append(dict(query=text, language=lang, kinds=tuple(kinds), tags=tuple(tags), brands=tuple(brands),
                  brand_kinds=brand_kinds))


# English
query("food delivery", "en", kinds=["food_delivery"])
query("groceries", "en", kinds=["groceries"])
query("electricity bill", "en", kinds=["electricity"])
query("medicines", "en", kinds=["pharmacy"])
query("cinema tickets", "en", kinds=["movies"])
query("rent", "en", kinds=["rent"])
query("phone recharge", "en", kinds=["mobile"])
query("petrol", "en", kinds=["fuel"])
query("coffee", "en", tags=["coffee"])
query("eating out", "en", kinds=["dining"])
query("flights", "en", kinds=["flights"])
query("hotel stay", "en", kinds=["hotels"])
query("wifi bill", "en", kinds=["internet"])
query("streaming subscriptions", "en", kinds=["streaming"])
query("medical bills", "en", kinds=["doctors"])
query("lab tests", "en", tags=["lab"])
query("gym membership", "en", kinds=["gym"])
query("clothes shopping", "en", kinds=["clothing"])
query("gadgets", "en", kinds=["electronics"])
query("paycheck", "en", kinds=["salary"])
query("cash withdrawal", "en", kinds=["atm"])
query("money back from a store", "en", kinds=["refund"])
query("money sent to friends", "en", kinds=["p2p_out"])
query("insurance premium", "en", kinds=["insurance"])
query("school fees", "en", tags=["school"])
query("college tuition", "en", tags=["university"])
query("train tickets", "en", tags=["train"])
query("utility bills", "en", kinds=["electricity", "water", "gas"])
query("netflix", "en", brands=["netflix"])
query("uber rides", "en", brand_kinds=(["uber"], ["taxi"]))
query("amazon refund", "en", brand_kinds=(["amazon"], ["refund"]))
query("spotify", "en", brands=["spotify"])
query("starbucks", "en", brands=["starbucks"])
query("walgreens", "en", brands=["walgreens"])
query("apollo pharmacy medicines", "en", brand_kinds=(["apollo"], ["pharmacy"]))
query("taxi", "en", kinds=["taxi"])
query("zelle", "en", brands=["zelle"])
# Spanish
query("supermercado", "es", kinds=["groceries"])
query("pago de luz", "es", kinds=["electricity"])
query("gasolina", "es", kinds=["fuel"])
query("comida a domicilio", "es", kinds=["food_delivery"])
query("alquiler del piso", "es", kinds=["rent"])
query("farmacia", "es", kinds=["pharmacy"])
query("recarga de móvil", "es", kinds=["mobile"])
query("factura de internet", "es", kinds=["internet"])
query("entradas de cine", "es", kinds=["movies"])
query("taxi", "es", kinds=["taxi"])
query("billetes de avión", "es", kinds=["flights"])
query("hotel", "es", kinds=["hotels"])
query("gimnasio", "es", kinds=["gym"])
query("ropa", "es", kinds=["clothing"])
query("sueldo", "es", kinds=["salary"])
query("sacar dinero del cajero", "es", kinds=["atm"])
query("devoluciones", "es", kinds=["refund"])
query("dinero enviado a amigos", "es", kinds=["p2p_out"])
query("seguro", "es", kinds=["insurance"])
query("médico", "es", kinds=["doctors"])
query("transporte público", "es", kinds=["transit"])
query("agua y gas", "es", kinds=["water", "gas"])
query("cafetería", "es", tags=["cafe"])
query("mercadona", "es", brands=["mercadona"])
query("recibo de iberdrola", "es", brands=["iberdrola"])
query("bizum recibido", "es", brand_kinds=(["bizum"], ["p2p_in"]))
query("gasolinera repsol", "es", brand_kinds=(["repsol"], ["fuel"]))
query("compras en amazon", "es", brand_kinds=(["amazon"], ["marketplace"]))
query("matrícula de la universidad", "es", tags=["university"])
# Hindi, Latin script
query("paisa bheja", "hi-latn", kinds=["p2p_out"])
query("khana mangaya", "hi-latn", kinds=["food_delivery"])
query("bijli ka bill", "hi-latn", kinds=["electricity"])
query("dawai", "hi-latn", kinds=["pharmacy"])
query("petrol pump", "hi-latn", kinds=["fuel"])
query("ghar ka kiraya", "hi-latn", kinds=["rent"])
query("tankhwah", "hi-latn", kinds=["salary"])
query("ATM se paise nikale", "hi-latn", kinds=["atm"])
query("sabzi aur kirana", "hi-latn", kinds=["groceries"])
query("phone recharge karwaya", "hi-latn", kinds=["mobile"])
query("picture dekhne gaye", "hi-latn", kinds=["movies"])
query("hawai jahaz ka ticket", "hi-latn", kinds=["flights"])
query("doctor ki fees", "hi-latn", kinds=["doctors"])
query("kapde kharide", "hi-latn", kinds=["clothing"])
query("paise wapas aaye", "hi-latn", kinds=["refund"])
query("swiggy se khana", "hi-latn", brand_kinds=(["swiggy"], ["food_delivery"]))
# Hindi, Devanagari
query("बिजली बिल", "hi-deva", kinds=["electricity"])
query("दवाई", "hi-deva", kinds=["pharmacy"])
query("टैक्सी", "hi-deva", kinds=["taxi"])
query("किराया", "hi-deva", kinds=["rent"])
query("वेतन", "hi-deva", kinds=["salary"])
query("पेट्रोल", "hi-deva", kinds=["fuel"])
query("सिनेमा टिकट", "hi-deva", kinds=["movies"])
query("किराने का सामान", "hi-deva", kinds=["groceries"])
query("खाना ऑर्डर", "hi-deva", kinds=["food_delivery"])
query("होटल", "hi-deva", kinds=["hotels"])
query("बीमा प्रीमियम", "hi-deva", kinds=["insurance"])
query("स्कूल की फीस", "hi-deva", tags=["school"])
query("जिम", "hi-deva", kinds=["gym"])
query("दोस्त को पैसे भेजे", "hi-deva", kinds=["p2p_out"])
query("मेट्रो", "hi-deva", tags=["metro"])
query("इंटरनेट बिल", "hi-deva", kinds=["internet"])


def relevant_for(q):
    out = []
    for rec in M:
        ok = rec["kind"] in q["kinds"] or any(tg in rec["tags"] for tg in q["tags"]) or rec["brand"] in q["brands"]
        if q["brand_kinds"]:
            brands, kinds = q["brand_kinds"]
            ok = ok or (rec["brand"] in brands and rec["kind"] in kinds)
        if ok:
            out.append(rec["name"])
    return out


def queries():
    out = []
    for i, q in enumerate(Q, 1):
        rel = relevant_for(q)
        assert rel, q
        # The sealed rule: every third id.
        out.append({"id": f"q{i:03d}", "query": q["query"], "language": q["language"], "relevant": rel,
                    "part": "sealed" if i % 3 == 0 else "dev"})
    return out


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def check(parsed_path, rows):
    intended = {r["id"]: r for r in rows}
    got = {}
    with open(parsed_path, encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)
            got[t["source"]["id"]] = t
    per_template = defaultdict(Counter)
    bad = []
    for mid, r in intended.items():
        t = got.get(mid)
        ok = t is not None and t.get("merchant") == r["merchant"]
        per_template[r["template"]][ok] += 1
        if not ok:
            bad.append((mid, r["merchant"], None if t is None else t.get("merchant"), r["text"][:140]))
    good = sum(c[True] for c in per_template.values())
    print(f"{good}/{len(intended)} messages parsed with the intended merchant: {100.0 * good / len(intended):.2f}%")
    for name, c in sorted(per_template.items()):
        print(f"  {name:20s} {c[True]:5d} ok {c[False]:4d} not")
    for b in bad[:40]:
        print("  MISS", b)
    return good / len(intended)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", metavar="PARSED_JSONL", help="compare `spendlex parse` output with the intended merchants")
    args = ap.parse_args()
    rows, messages = generate()
    if args.check:
        share = check(args.check, rows)
        sys.exit(0 if share >= 0.95 else 1)
    os.makedirs(OUT_DIR, exist_ok=True)
    write_jsonl(os.path.join(OUT_DIR, "messages.jsonl"), messages)
    qs = queries()
    write_jsonl(os.path.join(OUT_DIR, "queries.jsonl"), qs)
    kinds = Counter(r["rec"]["kind"] for r in rows)
    countries = Counter(r["rec"]["country"] for r in rows)
    print(f"{len(messages)} messages, {len({r['merchant'] for r in rows})} merchants, {len(kinds)} kinds; "
          f"by country {dict(countries)}")
    print(f"{len(qs)} queries: {dict(Counter(q['language'] for q in qs))}; "
          f"parts {dict(Counter(q['part'] for q in qs))}")


if __name__ == "__main__":
    main()
