#!/usr/bin/env python3
"""Writes Sources/SpendlexEngine/Resources/currencies.tsv from CLDR, as Babel ships it.

    pip install babel && python3 scripts/currencies.py

Every currency that is legal tender somewhere today, or was until the last six years, (CLDR's territory currencies with no end
date) gets its ISO 4217 code, its minor-unit digits (CLDR's `digits`: what people write, e.g.
0 for IQD where ISO says 3), its English name, every symbol CLDR gives it in the locales of the
countries that use it (and in English), and its names in those countries' official languages
(display names and plural forms, lower-cased). Each country gets the currencies in use there,
the everyday one first. The engine embeds the file and loads it once (CurrencyTable.swift).

Country-specific ways of writing a currency that CLDR does not know ("Rs" for rupees, "N" for
naira, "Tk" for taka) are in the country profiles, rules/countries/<cc>.yaml, not here.
"""
import datetime
import os
import sys

import babel
from babel import Locale, UnknownLocaleError
from babel.core import get_global

# Ways banks write currencies that CLDR does not list as symbols, shared across countries or
# written the same way everywhere ("US$", "Rs", "Dhs", "RM"). A form listed for several
# currencies is resolved by the country, like a shared CLDR symbol. Forms only one country
# writes belong in its profile (rules/countries/<cc>.yaml).
WRITTEN_FORMS = {
    "USD": ["US$", "U$S", "USD$", "U$"], "CAD": ["CA$", "CAN$", "CAD$", "C$"],
    "AUD": ["A$", "AU$", "AUD$"], "NZD": ["NZ$"], "SGD": ["S$", "SG$"], "HKD": ["HK$", "$"],
    "MXN": ["MX$", "MEX$"], "TWD": ["NT$", "元"], "BRL": ["R$"], "DOP": ["RD$", "$"], "JMD": ["J$"],
    "TTD": ["TT$"], "XCD": ["EC$"], "BBD": ["Bds$"], "BZD": ["BZ$"], "FJD": ["FJ$"], "NAD": ["N$"],
    "KYD": ["CI$"], "WST": ["WS$", "$"], "TOP": ["T$", "$"], "NIO": ["C$"],
    "INR": ["Rs", "Rs.", "Re", "Re.", "₨", "rupee", "rupees"], "PKR": ["Rs", "₨"], "LKR": ["Rs"],
    "NPR": ["Rs"], "MUR": ["Rs"], "SCR": ["Rs"],
    "EUR": ["euro", "euros"], "GBP": ["GB£"], "EGP": ["E£", "£"], "LBP": ["L£", "£"], "SYP": ["£"],
    "JPY": ["JP¥", "円"], "CNY": ["CN¥", "RMB", "人民币", "元", "圆", "¥"], "KRW": ["원"],
    "RUB": ["руб", "р."], "TRY": ["TL"], "ILS": ["NIS"], "UAH": ["грн"], "GHS": ["GH₵", "GH¢"],
    "BDT": ["Tk"], "IDR": ["Rp"], "MYR": ["RM"], "CZK": ["Kč"], "PLN": ["zł"], "HUF": ["Ft"],
    "RON": ["lei"], "BGN": ["лв"], "CHF": ["Fr", "SFr"], "ZAR": ["R"],
    "KES": ["Ksh"], "UGX": ["USh"], "TZS": ["TSh"], "PEN": ["S/", "S/."],
    "SAR": ["SR", "ر.س"], "QAR": ["QR", "ر.ق"], "BHD": ["BD", "د.ب"], "KWD": ["KD", "د.ك"],
    "OMR": ["RO", "ر.ع"], "JOD": ["JD", "د.ا"], "TND": ["DT"], "AED": ["د.إ", "Dh", "Dhs", "dirham", "dirhams"],
    "MAD": ["Dh", "Dhs", "dirham", "dirhams"], "XOF": ["CFA", "FCFA", "F"], "XAF": ["CFA", "FCFA", "F"],
    "VES": ["Bs"], "BOB": ["Bs"], "SEK": ["kr", "kr."], "NOK": ["kr", "kr."], "DKK": ["kr", "kr."],
    "ISK": ["kr", "kr."],
}

# The currency in everyday use where CLDR lists several, or where it is behind: Panama prices and
# pays in US dollars (the balboa is coins); Bulgaria adopted the euro on 2026-01-01 (after CLDR 47).
EVERYDAY = {"PA": "USD", "BG": "EUR"}

# A symbol several currencies share, read when no country decides: the currency most messages
# that write it mean. Every other shared symbol without a country resolves to nothing certain:
# the engine then takes the first candidate and marks the currency as a doubt.
SHARED_SYMBOL_DEFAULTS = {
    "$": "USD", "¥": "JPY", "£": "GBP", "kr": "SEK", "Rs": "INR", "Fr": "CHF", "R": "ZAR",
    "K": "MMK", "L": "HNL", "P": "BWP", "Br": "ETB", "S": "SOS", "C$": "CAD", "元": "CNY",
    "Dh": "AED", "Dhs": "AED", "dirham": "AED", "dirhams": "AED", "CFA": "XOF", "FCFA": "XOF", "F": "XOF",
    "Bs": "VES", "kr.": "SEK", "Rs.": "INR", "₨": "INR", "Re": "INR", "Re.": "INR", "rupee": "INR",
    "rupees": "INR", "dollar": "USD", "dollars": "USD", "pound": "GBP", "pounds": "GBP", "franc": "CHF",
    "francs": "CHF", "￥": "JPY", "SR": "SAR", "Rf": "MVR", "£": "GBP",
}


def official_languages(territory):
    """Languages with official status in a territory, most spoken first."""
    langs = get_global("territory_languages").get(territory, {})
    ranked = sorted(langs.items(), key=lambda kv: -kv[1].get("population_percent", 0))
    return [lang for lang, info in ranked if (info.get("official_status") or "").startswith("official")
            or info.get("population_percent", 0) >= 25]


def locale(language, territory):
    for ident in (f"{language}_{territory}", language):
        try:
            return Locale.parse(ident)
        except (UnknownLocaleError, ValueError):
            continue
    return None


def main():
    today = datetime.date.today()
    territories = {}
    for territory, entries in sorted(get_global("territory_currencies").items()):
        current = [code for code, start, end, tender in entries
                   if tender and end is None and (start is None or start <= today.timetuple()[:3])]
        if current and len(territory) == 2 and territory.isalpha():
            territories[territory] = current

    # Each country's everyday currency first: the one fewest countries share (BTN before INR in
    # Bhutan, NAD before ZAR in Namibia), unless EVERYDAY says otherwise.
    shared_by = {}
    for codes in territories.values():
        for code in codes:
            shared_by[code] = shared_by.get(code, 0) + 1
    for territory, codes in territories.items():
        codes.sort(key=lambda code: (code != EVERYDAY.get(territory), shared_by[code]))
    for territory, code in EVERYDAY.items():
        if code not in territories[territory]:
            territories[territory].insert(0, code)

    users = {}
    for territory, codes in territories.items():
        for code in codes:
            users.setdefault(code, []).append(territory)
    # Replaced in the last six years (HRK, SLL, ZWL): still read in old messages, never a default.
    until = {}
    cutoff = (today.year - 6, today.month, today.day)
    for territory, entries in get_global("territory_currencies").items():
        for code, start, end, tender in entries:
            if tender and end is not None and end >= cutoff and code not in users and len(territory) == 2:
                users.setdefault(code, []).append(territory)
                until[code] = max(until.get(code, end), end)

    english = Locale("en")
    fractions = get_global("currency_fractions")
    currencies = {}
    for code in sorted(users):
        symbols, names = set(), set()
        symbols.add(english.currency_symbols.get(code, code))
        names.add(english.currencies.get(code, code).lower())
        for plural in english._data["currency_names_plural"].get(code, {}).values():
            names.add(plural.lower())
            # The unit alone, as messages write it: "naira", "baht", "shillings" (shared units such
            # as "dollars" are resolved by the country).
            if "(" not in plural:
                names.add(plural.split()[-1].lower())
        for territory in users[code]:
            for language in official_languages(territory):
                loc = locale(language, territory)
                if loc is None:
                    continue
                if code in loc.currency_symbols:
                    symbols.add(loc.currency_symbols[code])
                if code in loc.currencies:
                    names.add(loc.currencies[code].lower())
                for plural in loc._data["currency_names_plural"].get(code, {}).values():
                    names.add(plural.lower())
        symbols.update(WRITTEN_FORMS.get(code, []))
        symbols.discard(code)
        digits = fractions.get(code, fractions["DEFAULT"])[0]
        currencies[code] = {
            "digits": digits,
            "name": english.currencies.get(code, code),
            "symbols": sorted(symbols),
            "names": sorted(n for n in names if n and n != code.lower()),
            "countries": sorted(users[code]),
        }
        if code in until:
            currencies[code]["until"] = "%04d-%02d-%02d" % until[code]

    out = {
        "source": f"CLDR {babel.core.get_cldr_version()} via Babel {babel.__version__}",
        "generated_by": "scripts/currencies.py",
        "shared_symbol_defaults": SHARED_SYMBOL_DEFAULTS,
        "currencies": currencies,
        "countries": territories,
    }
    path = os.path.join(os.path.dirname(__file__), "..", "Sources", "SpendlexEngine", "Resources", "currencies.tsv")
    # Tab-separated lines, one currency and one country per line: reviewable diffs when CLDR
    # changes, and half the start-up cost of the same data as JSON through JSONDecoder (1.7 ms
    # against 3.5). Lists are joined with "|"; no form contains a tab, a "|" or a line break
    # (checked below).
    def joined(values):
        for value in values:
            assert not any(c in value for c in "\t|\n"), value
        return "|".join(values)

    with open(path, "w", encoding="utf-8") as f:
        f.write("# Every ISO 4217 currency in use, from CLDR: written by scripts/currencies.py; do not edit.\n")
        f.write("# source<TAB>where the data comes from\n")
        f.write("# default<TAB>shared form<TAB>the currency it means when no country decides\n")
        f.write("# currency<TAB>code<TAB>digits<TAB>English name<TAB>symbols<TAB>names<TAB>countries<TAB>until (or empty)\n")
        f.write("# country<TAB>ISO 3166-1 code<TAB>its currencies, the oldest first\n")
        f.write(f"source\t{out['source']}\n")
        for form, code in SHARED_SYMBOL_DEFAULTS.items():
            f.write(f"default\t{joined([form])}\t{code}\n")
        for code, c in currencies.items():
            f.write("\t".join(["currency", code, str(c["digits"]), joined([c["name"]]), joined(c["symbols"]),
                               joined(c["names"]), joined(c["countries"]), c.get("until", "")]) + "\n")
        for territory, codes in territories.items():
            f.write(f"country\t{territory}\t{joined(codes)}\n")
    print(f"{len(currencies)} currencies, {len(territories)} countries -> {os.path.normpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
