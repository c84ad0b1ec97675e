"""Drives the admin dashboard (/admin/) in a real headless Chromium against a running Glossa.

The scenario, as an admin goes through it: log in with the admin key; read the overview; create
a developer key in the Keys view (its secret read from the dialog that shows it once) and set
its character limit; make translations through the API with two reporting tags; check that the
Usage view's tables, chart and CSV show exactly those numbers, by key and by tag; read the audit
log; in the Voice view turn translated speech on and create, edit and delete a spoken terms list
(each checked through the API, and the API's refusals shown); set cost control and the rate
limit; deactivate the key in the UI and see the API refuse it; log out; see a developer key
refused at the login; and, with the keyboard alone, log in, move between views and open and
dismiss a dialog, the focus always visible. axe-core checks every view (and the dialogs) in the same
browser: any `serious` or `critical` violation fails the run. The browser's console must show
no script error and no Content-Security-Policy violation.

Usage: dashboard.py BASE_URL ADMIN_KEY --screenshots DIR
Prints one JSON report and exits 0, or explains what failed and exits 1. With
DASHBOARD_SCREENSHOT_DOCS=1 it also writes the Usage view's screenshot to
docs/images/dashboard-usage.png (the README's picture).
"""

import argparse
import csv
import io
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
AXE = ROOT / "dashboard" / "node_modules" / "axe-core" / "axe.min.js"
DOCS_IMAGE = ROOT / "docs" / "images" / "dashboard-usage.png"
WAIT_SECONDS = 20

# The translations made through the API, by reporting tag: their texts' characters are what the
# dashboard must show (the deterministic engine bills the source's code points).
TRANSLATIONS = {"alpha": ["Hello world", "Good morning"], "beta": ["Hi there"]}
EXPECTED_BY_TAG = {tag: sum(len(text) for text in texts) for tag, texts in TRANSLATIONS.items()}
EXPECTED_TOTAL = sum(EXPECTED_BY_TAG.values())
KEY_LABEL = "dashboard-e2e"

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    sys.exit("Selenium is not installed in target/venv: run `scripts/setup.sh --tests`.")


class Failure(Exception):
    """A check of the scenario that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def api(base, method, path, key, form=None, headers=None, body=None):
    """Calls the API as any client does, with a form or a JSON `body`; answers (status, parsed
    JSON or None)."""
    data = urllib.parse.urlencode(form, doseq=True).encode() if form is not None else None
    if body is not None:
        data = json.dumps(body).encode()
        headers = {**(headers or {}), "Content-Type": "application/json"}
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"Service-Auth-Key {key}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


class Dashboard:
    def __init__(self, base, screenshots):
        self.base = base
        self.screenshots = screenshots
        self.axe_results = {}
        self.saved = []
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                         "--disable-gpu", "--no-first-run", "--lang=en-US"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        self.driver.set_window_size(1280, 900)
        self.wait = WebDriverWait(self.driver, WAIT_SECONDS)
        self.console = []

    def close(self):
        self.driver.quit()

    # Finding and waiting.

    def find(self, css):
        return self.wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, css)), f"no visible {css}")

    def button(self, text):
        xpath = f"//button[normalize-space()='{text}' or @aria-label='{text}']"
        return self.wait.until(ec.element_to_be_clickable((By.XPATH, xpath)), f"no button “{text}”")

    def field(self, label):
        """The input a visible label names."""
        xpath = f"//label[normalize-space()='{label}']"
        element = self.wait.until(ec.visibility_of_element_located((By.XPATH, xpath)), f"no field “{label}”")
        return self.driver.find_element(By.ID, element.get_attribute("for"))

    def heading(self, text):
        self.wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "main h1"), text), f"no heading “{text}”")

    def status(self, text):
        self.wait.until(ec.text_to_be_present_in_element((By.ID, "status"), text), f"no status “{text}”")

    def alert_text(self):
        return self.driver.find_element(By.ID, "alert").text

    def wait_for_alert(self, text):
        try:
            self.wait.until(ec.text_to_be_present_in_element((By.ID, "alert"), text))
        except TimeoutException:
            raise Failure(f"the alert never said “{text}”; it says “{self.alert_text()}”") from None
        return self.alert_text()

    def no_alert(self):
        check(self.alert_text() == "", f"an error is shown: {self.alert_text()}")

    def go(self, route, heading):
        """Opens a view; the one already open is loaded again."""
        if self.driver.execute_script("return window.location.hash") == route:
            self.driver.refresh()
        else:
            self.driver.execute_script("window.location.hash = arguments[0]", route)
        self.heading(heading)

    def table_rows(self, caption_part):
        """The rows of the table whose caption contains `caption_part`, as lists of cell texts."""
        xpath = f"//table[caption[contains(normalize-space(), '{caption_part}')]]"
        table = self.wait.until(ec.visibility_of_element_located((By.XPATH, xpath)), f"no table “{caption_part}”")
        rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
        return [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")] for row in rows]

    def headers(self, caption_part):
        """The column headers of the table whose caption contains `caption_part`, once it is shown
        (a view's heading comes before its tables)."""
        xpath = f"//table[caption[contains(normalize-space(), '{caption_part}')]]"
        table = self.wait.until(ec.visibility_of_element_located((By.XPATH, xpath)), f"no table “{caption_part}”")
        return [cell.text for cell in table.find_elements(By.CSS_SELECTOR, "thead th")]

    # Evidence.

    def screenshot(self, name, whole_page=False):
        """Saves the window (or, `whole_page`, the page at its full height) as `name`.png."""
        path = self.screenshots / f"{name}.png"
        size = self.driver.get_window_size()
        if whole_page:
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(size["width"], min(2400, height + 140))
            self.driver.execute_script("window.scrollTo(0, 0)")
        self.driver.save_screenshot(str(path))
        if whole_page:
            self.driver.set_window_size(size["width"], size["height"])
        self.saved.append(str(path))
        return path

    def axe(self, name):
        """Runs axe-core on the page as it is; fails on serious or critical violations."""
        self.driver.execute_script(AXE.read_text())
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, { resultTypes: ['violations'] })"
            ".then((r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }))))"
            ".catch((e) => done({ error: String(e) }));"
        )
        check(not isinstance(result, dict), f"axe-core failed on {name}: {result}")
        grave = [v for v in result if v["impact"] in ("serious", "critical")]
        self.axe_results[name] = {"violations": len(result), "serious_or_critical": len(grave),
                                  "ids": sorted({v["id"] for v in result})}
        check(not grave, f"axe-core found serious or critical violations on {name}:\n" + json.dumps(grave, indent=2))

    def collect_console(self):
        for entry in self.driver.get_log("browser"):
            self.console.append(entry)

    def console_problems(self):
        """Script errors and Content-Security-Policy violations the browser logged. A refused
        request (the developer key's 403, on purpose) is logged as a failed resource: not one."""
        self.collect_console()
        problems = []
        for entry in self.console:
            message = entry.get("message", "")
            if "Content Security Policy" in message or "Refused to" in message or "Uncaught" in message:
                problems.append(message)
            elif entry.get("level") == "SEVERE" and "Failed to load resource" not in message:
                problems.append(message)
        return problems

    def session_storage_key(self):
        return self.driver.execute_script("return window.sessionStorage.getItem('glossa.admin-key')")

    def canvas_ink(self):
        """How many pixels of the usage chart's canvas are drawn on (not transparent)."""
        return self.driver.execute_script(
            "const canvas = document.querySelector('.chart canvas');"
            "if (!canvas) return -1;"
            "const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;"
            "let ink = 0; for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;"
            "return ink;"
        )

    def csv_download(self):
        """The CSV the "Download CSV" link holds (a data: URL), parsed; and the file name."""
        link = self.find("[data-testid=csv-download]")
        href = link.get_attribute("href")
        prefix = "data:text/csv;charset=utf-8,"
        check(href.startswith(prefix), f"the CSV link is not a data: URL of text/csv: {href[:60]}")
        text = urllib.parse.unquote(href[len(prefix):])
        return list(csv.DictReader(io.StringIO(text))), link.get_attribute("download")


def press(page, *keys):
    """Presses keys as a keyboard does, on whatever has the focus."""
    ActionChains(page.driver).send_keys(*keys).perform()


def tab_to(page, describe, wanted, most=60):
    """Presses Tab until the focused element is `wanted` (a predicate on it), checking on the way
    that the focus is visible (an outline or a box shadow); answers the element."""
    for _ in range(most):
        press(page, Keys.TAB)
        focused = page.driver.switch_to.active_element
        if wanted(focused):
            style = page.driver.execute_script(
                "const s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineWidth, s.boxShadow];",
                focused,
            )
            visible = (style[0] != "none" and style[1] not in ("0px", "")) or style[2] not in ("none", "")
            check(visible, f"the focus on {describe} is not visible: {style}")
            return focused
    raise Failure(f"Tab never reached {describe}")


def keyboard_only(page, admin_key):
    """Logs in, moves between views and opens and dismisses a dialog with the keyboard alone."""
    driver = page.driver
    page.heading("Log in")
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    tab_to(page, "the admin key field", lambda element: element.get_attribute("type") == "password")
    # The field still holds the refused developer key: select it all and type over it.
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    press(page, admin_key, Keys.ENTER)
    # Logged in, the app opens the view its address names (the last one, Keys).
    page.button("Log out")
    tab_to(page, "the Usage link", lambda element: element.tag_name == "a" and element.text == "Usage")
    press(page, Keys.ENTER)
    page.heading("Usage")
    check("usage" in driver.current_url, f"Enter on the Usage link opened {driver.current_url}")
    link = driver.find_element(By.XPATH, "//nav//a[normalize-space()='Usage']")
    check(link.get_attribute("aria-current") == "page", "the current view's link is not marked")
    tab_to(page, "the Keys link", lambda element: element.tag_name == "a" and element.text == "Keys")
    press(page, Keys.ENTER)
    page.heading("Keys")
    tab_to(page, "a Deactivate button", lambda element: element.tag_name == "button"
           and element.text.startswith("Deactivate"))
    press(page, Keys.ENTER)
    page.find("dialog[open]")
    check(driver.switch_to.active_element.text == "Cancel", "the confirmation's focus is not on Cancel")
    press(page, Keys.ESCAPE)
    page.wait.until(lambda _: not driver.find_elements(By.CSS_SELECTOR, "dialog[open]"), "Escape did not close it")
    page.screenshot("keyboard")


def login(page, key):
    field = page.field("Admin key")
    field.clear()
    field.send_keys(key)
    page.button("Log in").click()


def voice(page, base, admin_key):
    """The Voice view: the translated-speech switch and a spoken terms list's life."""
    driver = page.driver
    status, switch = api(base, "GET", "/v2/admin/translated-speech", admin_key)
    check((status, switch) == (200, {"translated_speech": False}), f"translated speech at first: {status} {switch}")
    page.go("#/voice", "Voice")
    page.wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "main"), "Translated speech is off"),
                    "the Voice view does not say that translated speech is off")
    page.find("main").find_element(By.XPATH, "//p[normalize-space()='No spoken terms lists yet.']")
    page.axe("voice-empty")
    checkbox = page.field("Allow translated speech")
    check(not checkbox.is_selected(), "the translated-speech switch shows on while the API says off")
    checkbox.click()
    page.button("Save translated speech").click()
    page.status("Translated speech is on.")
    page.no_alert()
    status, switch = api(base, "GET", "/v2/admin/translated-speech", admin_key)
    check((status, switch) == (200, {"translated_speech": True}), f"translated speech after saving: {status} {switch}")
    result = {"translated_speech": switch["translated_speech"]}

    # A list the API refuses (a term twice): its own 400 message, and nothing created.
    page.field("Name of the new list").send_keys("Twice")
    page.field("Terms of the new list, one per line").send_keys("Glossa\nglossa")
    page.button("Create list").click()
    result["refused"] = page.wait_for_alert("'glossa' is listed twice")
    status, lists = api(base, "GET", "/v2/admin/spoken-terms", admin_key)
    check((status, lists) == (200, {"spoken_terms": []}), f"a refused list was created: {status} {lists}")

    # Create a list: one term per line, a blank line ignored.
    page.field("Name of the new list").clear()
    page.field("Name of the new list").send_keys("Product names")
    terms = page.field("Terms of the new list, one per line")
    terms.clear()
    terms.send_keys("Glossa\nSpin\n\nWebAssembly")
    page.button("Create list").click()
    page.status("Spoken terms list “Product names” created.")
    page.no_alert()
    status, lists = api(base, "GET", "/v2/admin/spoken-terms", admin_key)
    check(status == 200 and len(lists["spoken_terms"]) == 1, f"the lists the API holds: {status} {lists}")
    created = lists["spoken_terms"][0]
    check((created["name"], created["terms"]) == ("Product names", ["Glossa", "Spin", "WebAssembly"]),
          f"the list the API holds: {created}")
    list_id = created["spoken_terms_id"]
    headers = page.headers("Spoken terms lists")
    rows = page.table_rows("Spoken terms lists")
    check(len(rows) == 1 and rows[0][0] == "Product names" and rows[0][headers.index("Terms")] == "3"
          and rows[0][headers.index("ID")] == list_id, f"the lists' table shows {rows}")
    result["created"] = {"name": created["name"], "terms": created["terms"]}

    # Edit it in its dialog: a refusal keeps the dialog open with the API's message; then a
    # new name and new terms.
    page.button("Edit Product names").click()
    page.find("dialog")
    name = page.field("Name")
    check(name.get_attribute("value") == "Product names", f"the edit dialog's name: {name.get_attribute('value')}")
    terms = page.field("Terms, one per line")
    check(terms.get_attribute("value") == "Glossa\nSpin\nWebAssembly",
          f"the edit dialog's terms: {terms.get_attribute('value')!r}")
    page.axe("spoken-terms-dialog")
    terms.clear()
    terms.send_keys("x" * 101)
    page.button("Save list").click()
    page.wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "dialog [role=alert]"),
                                                     "term 1 is longer than 100 characters"),
                    "the dialog does not show the API's refusal")
    result["refused_in_dialog"] = driver.find_element(By.CSS_SELECTOR, "dialog [role=alert]").text
    page.screenshot("spoken-terms-dialog")
    name.clear()
    name.send_keys("Brands")
    terms.clear()
    terms.send_keys("Glossa\nSQLite")
    page.button("Save list").click()
    page.status("Spoken terms list “Brands” saved.")
    page.wait.until(ec.invisibility_of_element_located((By.CSS_SELECTOR, "dialog")))
    page.no_alert()
    status, edited = api(base, "GET", f"/v2/admin/spoken-terms/{list_id}", admin_key)
    check(status == 200 and (edited["name"], edited["terms"]) == ("Brands", ["Glossa", "SQLite"]),
          f"the list after editing: {status} {edited}")
    rows = page.table_rows("Spoken terms lists")
    check([row[0] for row in rows] == ["Brands"], f"the lists' table after editing: {rows}")
    result["edited"] = {"name": edited["name"], "terms": edited["terms"]}
    page.screenshot("voice", whole_page=True)
    page.axe("voice")

    # The same view on a phone.
    driver.set_window_size(390, 844)
    page.go("#/voice", "Voice")
    page.table_rows("Spoken terms lists")
    page.screenshot("voice-phone")
    page.axe("voice-phone")
    driver.set_window_size(1280, 900)

    # Delete it after confirming; the API no longer has it.
    page.button("Delete Brands").click()
    page.find("dialog")
    page.axe("delete-spoken-terms-dialog")
    page.button("Delete the list").click()
    page.status("“Brands” is deleted.")
    page.no_alert()
    page.find("main").find_element(By.XPATH, "//p[normalize-space()='No spoken terms lists yet.']")
    status, _ = api(base, "GET", f"/v2/admin/spoken-terms/{list_id}", admin_key)
    check(status == 404, f"the deleted list answers {status}")
    status, lists = api(base, "GET", "/v2/admin/spoken-terms", admin_key)
    check((status, lists) == (200, {"spoken_terms": []}), f"the lists after deleting: {status} {lists}")
    result["deleted_status"] = 404
    return result


def scenario(page, base, admin_key):
    report = {}
    driver = page.driver
    today = datetime.now(timezone.utc).date().isoformat()

    # Log in: /admin redirects to /admin/, the key is kept in sessionStorage only.
    driver.get(base + "/admin")
    check(driver.current_url.endswith("/admin/"), f"/admin did not redirect to /admin/: {driver.current_url}")
    page.heading("Log in")
    page.axe("login")
    login(page, admin_key)
    page.heading("Overview")
    check(page.session_storage_key() == admin_key, "the admin key is not in sessionStorage")
    check(driver.get_cookies() == [], f"the dashboard set cookies: {driver.get_cookies()}")
    check(admin_key not in driver.current_url, "the admin key is in the URL")
    rows = page.table_rows("Usage against the limits")
    check(rows and rows[0][0].startswith("Characters"), f"the overview shows no character usage: {rows}")
    days_left = int(page.find("[data-testid=days-left]").text)
    check(28 <= days_left <= 31, f"days left in a fresh billing period: {days_left}")
    report["overview"] = {"limits": rows, "days_left": days_left}
    page.screenshot("overview")
    page.axe("overview")

    # Keys: create a developer key, read its secret from the dialog shown once, set its limit.
    page.go("#/keys", "Keys")
    page.table_rows("Admin keys")
    page.field("Label of the new developer key").send_keys(KEY_LABEL)
    page.button("Create developer key").click()
    secret_input = page.find("dialog [data-testid=new-key-secret]")
    secret = secret_input.get_attribute("value")
    check(secret and not secret.endswith(":adm"), f"the dialog shows no developer key secret: {secret!r}")
    page.button("Copy key").click()
    page.wait.until(lambda _: driver.find_element(By.CSS_SELECTOR, "dialog [role=status]").text != "",
                    "the copy button said nothing")
    report["copy_result"] = driver.find_element(By.CSS_SELECTOR, "dialog [role=status]").text
    page.screenshot("new-key-dialog")
    page.axe("new-key-dialog")
    page.button("Done").click()
    page.wait.until(ec.invisibility_of_element_located((By.CSS_SELECTOR, "dialog")))
    check(secret not in driver.page_source, "the secret stays in the page after its dialog closed")
    page.wait.until(lambda _: any(row[0] == KEY_LABEL for row in page.table_rows("Developer keys")),
                    "the new key is not listed")

    page.button(f"Limits of {KEY_LABEL}").click()
    limit_field = page.field("Character limit per billing period")
    limit_field.clear()
    limit_field.send_keys("1000")
    page.axe("limits-dialog")
    page.button("Save limits").click()
    page.status(f"Limits of “{KEY_LABEL}” saved.")
    page.no_alert()
    headers = page.headers("Developer keys")
    row = next(row for row in page.table_rows("Developer keys") if row[0] == KEY_LABEL)
    shown_limit = row[headers.index("Character limit")]
    check(shown_limit == "1,000", f"the key's character limit shows {shown_limit!r}")
    status, keys = api(base, "GET", "/v2/admin/developer-keys", admin_key)
    key_object = next(key for key in keys if key["label"] == KEY_LABEL)
    check(key_object["usage_limits"]["characters"] == 1000, f"the limit the API holds: {key_object['usage_limits']}")
    report["key_limit"] = key_object["usage_limits"]["characters"]
    page.screenshot("keys")
    page.axe("keys")

    # Translations through the API, with two reporting tags.
    for tag, texts in TRANSLATIONS.items():
        for text in texts:
            status, _ = api(base, "POST", "/v2/translate", secret, {"text": text, "target_lang": "DE"},
                            {"X-Service-Reporting-Tag": tag})
            check(status == 200, f"translating {text!r} with tag {tag}: {status}")

    # The overview counts them in the billing period.
    page.go("#/overview", "Overview")
    rows = page.table_rows("Characters by product")
    breakdown = {row[0]: row[1] for row in rows}
    check(breakdown["Text translation"] == str(EXPECTED_TOTAL) and breakdown["Total"] == str(EXPECTED_TOTAL),
          f"the overview's breakdown shows {breakdown}")
    limits = page.table_rows("Usage against the limits")
    check(limits[0][1].startswith(f"{EXPECTED_TOTAL} characters of"), f"the overview's usage shows {limits}")
    report["overview_after"] = {"breakdown": breakdown, "limits": limits}

    # Keys again: the key's use beside its limit.
    page.go("#/keys", "Keys")
    headers = page.headers("Developer keys")
    row = next(row for row in page.table_rows("Developer keys") if row[0] == KEY_LABEL)
    check(row[headers.index("Characters used")] == str(EXPECTED_TOTAL), f"the key's use shows {row}")

    # Usage by key (totals, then day by day), with the chart drawn and the CSV.
    page.go("#/usage", "Usage")
    rows = page.table_rows("Usage by key, totals")
    headers = page.headers("Usage by key, totals")
    row = next((row for row in rows if row[0].startswith(KEY_LABEL)), None)
    check(row is not None, f"no row for {KEY_LABEL} in the usage by key: {rows}")
    by_key = {name: row[headers.index(name)] for name in ("Text translation", "Total characters")}
    check(by_key == {"Text translation": str(EXPECTED_TOTAL), "Total characters": str(EXPECTED_TOTAL)},
          f"usage by key shows {by_key}, expected {EXPECTED_TOTAL}")
    ink = page.canvas_ink()
    check(ink > 500, f"the usage chart's canvas is not drawn ({ink} pixels)")
    records, name = page.csv_download()
    record = next(record for record in records if record["Key label"] == KEY_LABEL)
    check(int(record["Total characters"]) == EXPECTED_TOTAL, f"the CSV by key: {record}")
    report["usage_by_key"] = {"table": by_key, "csv": record, "csv_name": name, "chart_pixels": ink}

    page.field("Day by day").click()
    page.button("Show usage").click()
    rows = page.table_rows("Usage by key, day by day")
    headers = page.headers("Usage by key, day by day")
    daily = [row for row in rows if row[0].startswith(KEY_LABEL)]
    check([(row[1], row[headers.index("Total characters")]) for row in daily] == [(today, str(EXPECTED_TOTAL))],
          f"usage by key and day: {daily}")

    # Usage by custom tag: exactly the tagged characters, in the table, the chart and the CSV.
    page.field("Custom tag").click()
    page.field("Totals for the range").click()
    page.button("Show usage").click()
    rows = page.table_rows("custom tags, totals")
    headers = page.headers("custom tags, totals")
    by_tag = {row[0]: int(row[headers.index("Total characters")].replace(",", "")) for row in rows}
    check(by_tag == EXPECTED_BY_TAG, f"usage by tag shows {by_tag}, expected {EXPECTED_BY_TAG}")
    check([row[0] for row in rows] == sorted(EXPECTED_BY_TAG, key=lambda tag: -EXPECTED_BY_TAG[tag]),
          f"the top tags are not ranked by total: {rows}")
    ink = page.canvas_ink()
    check(ink > 500, f"the tag chart's canvas is not drawn ({ink} pixels)")
    records, name = page.csv_download()
    from_csv = {record["Custom tag"]: int(record["Total characters"]) for record in records}
    check(from_csv == EXPECTED_BY_TAG, f"the CSV by tag holds {from_csv}")
    report["usage_by_tag"] = {"table": by_tag, "csv": from_csv, "csv_name": name, "chart_pixels": ink}
    page.no_alert()
    usage_shot = page.screenshot("usage", whole_page=True)
    if os.environ.get("DASHBOARD_SCREENSHOT_DOCS") == "1":
        DOCS_IMAGE.parent.mkdir(parents=True, exist_ok=True)
        DOCS_IMAGE.write_bytes(usage_shot.read_bytes())
        report["docs_image"] = str(DOCS_IMAGE.relative_to(ROOT))
    page.axe("usage")

    page.field("Top tags shown").clear()
    page.field("Top tags shown").send_keys("1")
    page.button("Show usage").click()
    rows = page.table_rows("Top 1 of 2 custom tags")
    check([row[0] for row in rows] == ["alpha"], f"the top 1 tag: {rows}")

    # The same view on a phone.
    driver.set_window_size(390, 844)
    page.go("#/keys", "Keys")
    page.go("#/usage", "Usage")
    page.table_rows("Usage by key")
    check(page.canvas_ink() > 200, "the chart is not drawn on a phone")
    page.screenshot("usage-phone")
    page.axe("usage-phone")
    driver.set_window_size(1280, 900)

    # Audit log: the key's creation and its limit, newest first.
    page.go("#/audit", "Audit log")
    rows = page.table_rows("Audit log, page 1")
    actions = [row[2] for row in rows]
    check("change key limits" in actions and "create key" in actions, f"the audit log shows {actions}")
    check(actions.index("change key limits") < actions.index("create key"), "the audit log is not newest first")
    report["audit_actions"] = actions
    page.screenshot("audit")
    page.axe("audit")

    # Voice: turn translated speech on, then create, edit and delete a spoken terms list; the API
    # holds what the UI did.
    report["voice"] = voice(page, base, admin_key)

    # Cost control and the rate limit.
    page.go("#/settings", "Cost control and rate limit")
    page.wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, "main"), "requests per second"))
    cost = page.field("Character limit per billing period")
    cost.clear()
    cost.send_keys("5000000")
    page.button("Save cost control").click()
    page.status("Cost control saved.")
    status, cost_control = api(base, "GET", "/v2/admin/cost-control", admin_key)
    check(cost_control == {"characters": 5000000}, f"cost control the API holds: {cost_control}")
    report["cost_control"] = cost_control["characters"]
    page.screenshot("settings")
    page.axe("settings")

    # The rate limit, lowered in the UI to one request per second: the next view's calls are
    # refused, and the alert says so in plain words. Then back to the default through the API,
    # once the key may send again.
    for label, value in (("Requests per second, per key", "1"), ("Burst (requests at once)", "1")):
        page.field(label).clear()
        page.field(label).send_keys(value)
    page.button("Save rate limit").click()
    page.status("Rate limit saved.")
    page.go("#/keys", "Keys")
    report["rate_limited_alert"] = page.wait_for_alert("Too many requests")
    page.screenshot("rate-limited")
    for _ in range(20):
        time.sleep(1.1)
        status, _ = api(base, "PUT", "/v2/admin/rate-limit", admin_key,
                        body={"requests_per_second": None, "burst": None})
        if status == 200:
            break
    check(status == 200, f"restoring the default rate limit answered {status}")

    # Deactivate the key in the UI, after confirming; the API refuses it from then on.
    page.go("#/keys", "Keys")
    page.button(f"Deactivate {KEY_LABEL}").click()
    page.find("dialog")
    page.axe("deactivate-dialog")
    page.button("Deactivate the key").click()
    page.status(f"“{KEY_LABEL}” is deactivated.")
    headers = page.headers("Developer keys")
    row = next(row for row in page.table_rows("Developer keys") if row[0] == KEY_LABEL)
    check(row[headers.index("Status")].startswith("Deactivated"), f"the key's status shows {row}")
    status, _ = api(base, "POST", "/v2/translate", secret, {"text": "Hello", "target_lang": "DE"})
    check(status == 403, f"a translation with the deactivated key answered {status}")
    report["deactivated_translation_status"] = status

    # Log out: the key leaves sessionStorage.
    page.button("Log out").click()
    page.heading("Log in")
    check(page.session_storage_key() is None, "the admin key stays in sessionStorage after logging out")

    # A developer key cannot log in; the refusal is in plain words.
    status, created = api(base, "POST", "/v2/admin/developer-keys", admin_key, {"label": "not-an-admin"})
    check(status == 200, f"creating a second developer key: {status}")
    login(page, created["key"])
    refusal = page.wait_for_alert("This is not an admin key")
    check(page.session_storage_key() is None, "a developer key was kept in sessionStorage")
    check(created["key"] not in refusal, "the refusal shows the key")
    report["developer_key_login"] = refusal
    page.screenshot("developer-key-refused")
    page.axe("developer-key-refused")

    # The keyboard alone: log in, change views, open and dismiss a dialog.
    keyboard_only(page, admin_key)

    problems = page.console_problems()
    check(not problems, "the browser's console shows errors:\n" + "\n".join(problems))
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url")
    parser.add_argument("admin_key")
    parser.add_argument("--screenshots", required=True, type=Path)
    arguments = parser.parse_args()
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        sys.exit(f"{', '.join(missing)} missing: install the browser with `apt-get install chromium chromium-driver` "
                 "(scripts/setup.sh --tests does).")
    if not AXE.exists():
        sys.exit(f"{AXE} missing: run `npm ci --prefix dashboard` (scripts/setup.sh --tests does).")
    # Selenium must use the browser and driver above and never fetch one.
    os.environ["SE_OFFLINE"] = "true"
    arguments.screenshots.mkdir(parents=True, exist_ok=True)
    page = Dashboard(arguments.base_url.rstrip("/"), arguments.screenshots)
    try:
        report = scenario(page, page.base, arguments.admin_key)
        report["axe"] = page.axe_results
        report["screenshots"] = page.saved
        print(json.dumps(report, indent=2))
    except Exception as failure:  # noqa: BLE001 - every failure is reported with a screenshot
        try:
            page.screenshot("failure")
        finally:
            what = str(failure) if isinstance(failure, Failure) else f"{type(failure).__name__}: {failure}"
            sys.exit(f"dashboard: {what}\n(screenshots in {arguments.screenshots}; axe so far: {page.axe_results})")
    finally:
        page.close()


if __name__ == "__main__":
    main()
