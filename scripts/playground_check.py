#!/usr/bin/env python3
"""The rule playground in headless Chromium (Selenium), step by step; run by scripts/playground-check.sh.

    python3 scripts/playground_check.py URL RULES_DIR

URL is what `spendlex playground` printed (…/playground#key=KEY); RULES_DIR the (temporary) first
rules folder it serves, where step (f) must find the saved file. Every wait is explicit and
generous (debug builds are slow), except the catastrophic pattern's one second, measured from the
moment the page sent the request (the page records it on #status). Exit 1 on the first failure.
"""
import pathlib
import re
import sys
import threading
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "Tests" / "Output"
DOCS = ROOT / "docs"
TIMEOUT = 90

MESSAGE = "SampleCU: card purchase of $41.20 at HARDWARE BARN."
UNMATCHED = "SampleCU: card refund of $5.00 from HARDWARE BARN."
RUNAWAY = "a" * 30 + "b"
SAVE_PATH = "banks/us/samplecu.yaml"

GOOD = r"""# yaml-language-server: $schema=../../../grammars/spendlex-rules.schema.json
bank: Sample Credit Union
id: samplecu
country: US
currency: USD
senders: ["SAMPLECU"]
parsers:
  - id: samplecu.card.debit
    direction: debit
    kind: purchase
    channel: card
    pattern: 'SampleCU: card purchase of %{MONEY:amount} at (?<merchant>[A-Z][A-Z ]+?)\.'
    examples:
      - text: "SampleCU: card purchase of $41.20 at HARDWARE BARN."
        expect: {amount: "41.20", currency: USD, merchant: HARDWARE BARN}
      - text: "SampleCU: card purchase of $7.05 at CORNER CAFE."
        expect: {amount: "7.05", merchant: CORNER CAFE}
    counter_examples:
      - "SampleCU: your one-time passcode is 482913."
"""
PATTERN_LINE = next(n for n, line in enumerate(GOOD.splitlines(), 1) if line.strip().startswith("pattern:"))
# The merchant group left open.
BROKEN = GOOD.replace(r"[A-Z ]+?)\.'", r"[A-Z ]+?\.'")
# Nested quantifiers on a line of a's that ends in a b: exponential backtracking.
CATASTROPHIC = GOOD.replace(GOOD.splitlines()[PATTERN_LINE - 1], "    pattern: '^(a+)+$'")
assert BROKEN != GOOD and CATASTROPHIC != GOOD


class Check:
    def __init__(self, url, rules):
        self.url, self.rules = url, pathlib.Path(rules)
        parts = urllib.parse.urlsplit(url)
        self.base = f"{parts.scheme}://{parts.netloc}"
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_window_size(1400, 1000)
        self.wait = WebDriverWait(self.driver, TIMEOUT)

    # Helpers -----------------------------------------------------------------------------------

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def until(self, what, condition, timeout=TIMEOUT):
        """Waits for condition(driver) to be truthy; on a time-out, says what was awaited and what the page shows."""
        try:
            return WebDriverWait(self.driver, timeout).until(condition)
        except TimeoutException:
            status = self.js("return document.getElementById('status').textContent")
            raise AssertionError(f"timed out after {timeout} s waiting for {what}; #status says {status!r}") from None

    def set_value(self, element_id, text):
        """Sets a textarea's or input's text at once, as a paste would, and fires its input event."""
        self.js("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                "e.dispatchEvent(new Event('input', {bubbles: true}));", element_id, text)

    def type_at_end(self, element_id, text):
        """Types text with the keyboard at the end of a field."""
        element = self.find("#" + element_id)
        self.js("const e = arguments[0]; e.focus(); e.setSelectionRange(e.value.length, e.value.length);", element)
        element.send_keys(text)

    def text(self, selector):
        elements = self.driver.find_elements(By.CSS_SELECTOR, selector)
        return elements[0].text if elements else None

    def card_field(self, index, field):
        return self.text(f'#results .card[data-index="{index}"] tr[data-field="{field}"] td')

    def screenshot(self, name):
        OUTPUT.mkdir(parents=True, exist_ok=True)
        path = OUTPUT / f"playground-{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def full_page_screenshot(self, path):
        """The whole page, not just the window: the viewport stretched to the page's height."""
        self.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        height = self.js("return Math.ceil(document.documentElement.scrollHeight)")
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 1400, "height": height, "deviceScaleFactor": 1, "mobile": False})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(path))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return height

    def working_state(self):
        """Two messages (one read, one not) and the working bank file; waits for both cards."""
        self.set_value("sender", "SAMPLECU")
        self.set_value("messages", f"{MESSAGE}\n\n{UNMATCHED}")
        self.set_value("rule", GOOD)
        self.until("the working state's two cards", lambda d: self.card_field(0, "amount") == "41.20"
                   and len(d.find_elements(By.CSS_SELECTOR, "#results .card")) == 2
                   and not d.find_elements(By.CSS_SELECTOR, "#results .catastrophic"))

    # Steps -------------------------------------------------------------------------------------

    def a_loads(self):
        self.driver.get(self.url)
        for selector in ("#messages", "#sender", "#rule", "#diagnostics", "#results", "#save-path", "#save", "#status"):
            self.until(selector, lambda d: d.find_elements(By.CSS_SELECTOR, selector))
        live = self.find("#results").get_attribute("aria-live")
        assert live == "polite", f"#results aria-live is {live!r}"
        # The file list came back: the key in the fragment works.
        self.until("the rule file list", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#file-select option")) > 1)
        unlabelled = self.js("""return [...document.querySelectorAll('input, select, textarea')]
            .filter(e => !(e.labels && e.labels.length)).map(e => e.id || e.outerHTML)""")
        assert not unlabelled, f"controls without a <label>: {unlabelled}"
        count = len(self.driver.find_elements(By.CSS_SELECTOR, "#file-select option")) - 1
        self.screenshot("a-loaded")
        return f"rule pane and diagnostics present; {count} rule files listed; every control labelled"

    def b_diagnostic(self):
        self.type_at_end("messages", MESSAGE)
        self.type_at_end("sender", "SAMPLECU")
        self.set_value("rule", BROKEN)
        found = self.until("a draft.yaml:LINE:COL diagnostic", lambda d: re.search(
            r"draft\.yaml:(\d+):(\d+): error: .+", self.find("#diagnostics").text))
        line, column = int(found.group(1)), int(found.group(2))
        assert line == PATTERN_LINE, f"the diagnostic is on line {line}, the pattern on {PATTERN_LINE}: {found.group(0)}"
        marked = [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#gutter .mark.error")]
        assert str(line) in marked, f"line {line} is not marked in the gutter (marked: {marked})"
        # Clicking the diagnostic puts the caret at its line and column.
        self.find("#diagnostics button").click()
        caret = self.find("#caret").text
        assert caret == f"Line {line}, column {column}", f"after the click the caret is at {caret!r}"
        assert self.js("return document.activeElement.id") == "rule", "the click did not focus the editor"
        self.screenshot("b-diagnostic")
        return f"{found.group(0)}; line {line} marked; clicking it puts the caret there"

    def c_transaction(self):
        self.set_value("rule", GOOD)
        self.until("amount 41.20 and merchant HARDWARE BARN", lambda d: self.card_field(0, "amount") == "41.20"
                   and self.card_field(0, "merchant") == "HARDWARE BARN")
        self.until("the examples run", lambda d: "passed" in self.find("#examples").text)
        examples = self.find("#examples").text
        assert re.search(r"\b3 passed, 0 failed\b", examples), f"examples: {examples!r}"
        rule = self.text('#results .card[data-index="0"] .rule-id')
        assert rule == "samplecu.card.debit", f"rule {rule!r}"
        assert "No problems" in self.find("#diagnostics").text, self.find("#diagnostics").text
        self.screenshot("c-transaction")
        return f"card 1: transaction by {rule}, amount 41.20, merchant HARDWARE BARN; examples {examples.splitlines()[0]}"

    def d_nearest(self):
        self.type_at_end("messages", "\n\n" + UNMATCHED)
        card = '#results .card[data-index="1"]'
        self.until("a second card", lambda d: d.find_elements(By.CSS_SELECTOR, card))
        status = self.find(card).get_attribute("data-status")
        assert status == "unmatched", f"the refund is {status!r}, not unmatched"
        self.until("the nearest parser on the second card", lambda d: self.text(card + " .nearest-parser"))
        nearest = self.text(card + " .nearest-parser")
        assert nearest == "samplecu.card.debit", f"nearest parser {nearest!r}"
        marker = self.find(card + " .stop-marker")
        assert marker.is_displayed(), "the stop marker is not visible"
        before, after = self.text(card + " .pattern .before"), self.text(card + " .pattern .after")
        assert "Nearest parser: samplecu.card.debit — stopped here" in self.find(card).text, self.find(card).text
        self.screenshot("d-nearest")
        return f"card 2: unmatched; nearest samplecu.card.debit, stopped at {before!r} ▼ {after!r}"

    def e_catastrophic(self):
        probes, stop = [], threading.Event()

        def probe():
            # GET /health again and again while the page works: the service must keep answering.
            while not stop.is_set():
                started = time.time() * 1000
                try:
                    with urllib.request.urlopen(self.base + "/health", timeout=10) as response:
                        code = response.status
                except Exception as error:  # noqa: BLE001 - any failure is a finding
                    code = repr(error)
                probes.append((started, time.time() * 1000, code))
                time.sleep(0.005)

        thread = threading.Thread(target=probe, daemon=True)
        thread.start()
        try:
            self.set_value("messages", f"{MESSAGE}\n\n{UNMATCHED}\n\n{RUNAWAY}")
            self.set_value("rule", CATASTROPHIC)
            self.until("Catastrophic backtracking", lambda d: "Catastrophic backtracking" in self.find("#results").text)
        finally:
            stop.set()
            thread.join()
        data = self.js("return Object.assign({}, document.getElementById('status').dataset)")
        sent, shown = int(data["shownSentAt"]), int(data["shownAt"])
        took = shown - sent
        self.screenshot("e-catastrophic")
        assert took <= 1000, f"the catastrophic result took {took} ms from the request to the page (over 1 s)"
        bad = [p for p in probes if p[2] != 200]
        assert not bad, f"GET /health failed during the catastrophic request: {bad[:3]}"
        during = [p for p in probes if p[0] < shown and p[1] > sent]
        assert during, f"no GET /health overlapped the request ({took} ms; {len(probes)} probes)"
        slowest = max(p[1] - p[0] for p in during)
        reason = self.text("#results .catastrophic")
        return (f"shown {took} ms after the request: {reason!r}; GET /health answered 200 {len(during)} times "
                f"during it (slowest {slowest:.0f} ms)")

    def f_save(self):
        self.working_state()
        target = self.rules / SAVE_PATH
        assert not target.exists(), f"{target} exists before the save"
        self.set_value("save-path", SAVE_PATH)
        self.find("#save").click()
        self.until("the diff dialog", lambda d: self.js("return document.getElementById('diff-dialog').open"))
        diff = self.find("#diff").text
        assert "+ bank: Sample Credit Union" in diff, f"the diff does not show the new lines: {diff[:300]!r}"
        self.screenshot("f-diff")
        self.find("#confirm-save").click()
        self.until("the save's outcome", lambda d: self.find("#save-result").text.startswith(("Saved", "Not saved")))
        outcome = self.find("#save-result").text
        assert outcome.startswith("Saved"), f"save refused: {outcome}"
        self.until(f"{target}", lambda d: target.exists())
        assert target.read_text() == GOOD, f"{target} does not hold the edited text:\n{target.read_text()}"
        # An edit, and Save again: the diff shows one line out, one in; Cancel leaves the file alone.
        self.set_value("rule", GOOD.replace("CORNER CAFE", "CORNER DELI"))
        self.find("#save").click()
        self.until("the second diff", lambda d: self.js("return document.getElementById('diff-dialog').open"))
        summary = self.find("#diff-summary").text
        assert summary == "2 lines added, 2 removed.", f"the second diff's summary: {summary!r}"
        self.find("#cancel-save").click()
        self.until("the dialog to close", lambda d: not self.js("return document.getElementById('diff-dialog').open"))
        assert target.read_text() == GOOD, "Cancel saved the file"
        assert self.js("return document.activeElement.id") == "save", "focus did not return to Save"
        self.set_value("rule", GOOD)
        return f"diff shown, confirmed: {outcome!r}; {target.relative_to(self.rules)} holds the edited text; a second diff ({summary}) cancelled"

    def g_keyboard(self):
        self.driver.get("about:blank")
        self.driver.get(self.url)
        self.until("the page", lambda d: d.find_elements(By.CSS_SELECTOR, "#messages"))
        self.until("the rule file list", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#file-select option")) > 1)
        visited = []
        actions = webdriver.ActionChains(self.driver)
        for _ in range(20):
            actions.send_keys(Keys.TAB).perform()
            visited.append(self.js("return document.activeElement.id || document.activeElement.tagName"))
            if visited[-1] == "save":
                break
        order = [i for i in ("messages", "sender", "file-select", "rule", "save-path", "save") if i in visited]
        assert order == ["messages", "sender", "file-select", "rule", "save-path", "save"], f"Tab visits {visited}"
        positions = [visited.index(i) for i in order]
        assert positions == sorted(positions), f"Tab order {visited}"
        assert visited[0] == "messages", f"the first Tab goes to {visited[0]}, not the messages"
        outline = self.js("return getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("none", ""), f"no visible focus outline on #save ({outline})"
        # Enter on Save opens the dialog with focus inside; Escape closes it and focus comes back.
        self.working_state()
        self.js("document.getElementById('save-path').focus()")
        self.find("#save-path").send_keys(SAVE_PATH)
        webdriver.ActionChains(self.driver).send_keys(Keys.TAB).perform()
        assert self.js("return document.activeElement.id") == "save"
        webdriver.ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        self.until("the dialog, by keyboard", lambda d: self.js("return document.getElementById('diff-dialog').open"))
        inside = self.js("return document.getElementById('diff-dialog').contains(document.activeElement)")
        assert inside, "focus is not in the dialog"
        tabbed = []
        for _ in range(2):
            webdriver.ActionChains(self.driver).send_keys(Keys.TAB).perform()
            tabbed.append(self.js("return document.activeElement.id"))
        assert tabbed == ["cancel-save", "confirm-save"], f"Tab in the dialog visits {tabbed}"
        webdriver.ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.until("Escape to close the dialog", lambda d: not self.js("return document.getElementById('diff-dialog').open"))
        back = self.js("return document.activeElement.id")
        assert back == "save", f"after Escape, focus is on {back!r}"
        self.screenshot("g-keyboard")
        return f"Tab: {' → '.join(visited)}; focus outline visible; Enter opens the dialog, Tab stays in it, Escape returns to Save"

    def run(self):
        steps = [("a", "the page loads", self.a_loads),
                 ("b", "a broken pattern gives a draft.yaml:LINE:COL diagnostic", self.b_diagnostic),
                 ("c", "the fixed pattern extracts amount and merchant", self.c_transaction),
                 ("d", "an unmatched message shows the nearest parser", self.d_nearest),
                 ("e", "a catastrophic pattern is reported within 1 s", self.e_catastrophic),
                 ("f", "saving through the diff dialog", self.f_save),
                 ("g", "keyboard", self.g_keyboard)]
        for letter, name, step in steps:
            started = time.monotonic()
            try:
                detail = step()
            except Exception as error:  # noqa: BLE001 - reported with the page's state
                print(f"playground-check: ({letter}) {name}: FAIL: {error}", flush=True)
                print(f"playground-check: screenshot {self.screenshot('failure')}", flush=True)
                for entry in self.driver.get_log("browser")[-10:]:
                    print(f"  browser console: {entry['level']} {entry['message']}", flush=True)
                return 1
            print(f"playground-check: ({letter}) {name}: ok ({time.monotonic() - started:.1f} s): {detail}", flush=True)
        self.working_state()
        height = self.full_page_screenshot(DOCS / "playground.png")
        print(f"playground-check: docs/playground.png: the working page, 1400x{height}", flush=True)
        return 0


def main():
    if len(sys.argv) != 3:
        print("usage: playground_check.py URL RULES_DIR", file=sys.stderr)
        return 64
    (OUTPUT / "playground-failure.png").unlink(missing_ok=True)  # a previous run's
    check = Check(sys.argv[1], sys.argv[2])
    try:
        return check.run()
    finally:
        check.driver.quit()


if __name__ == "__main__":
    sys.exit(main())
