// Audit log (Pro): every change to keys, limits, cost control and rate limits, newest first
// (GET /v2/admin/audit-log over a date range, a page at a time through `next_page`), filtered
// here by action and by what was changed.

import { addDays, call, today } from "../api.js";
import { field, h, replace, table, uid } from "../dom.js";
import { time } from "../format.js";
import { announce, showError } from "../notices.js";

function select(labelText, options) {
  const id = uid("select");
  const element = h("select", { id }, options.map(([value, text]) => h("option", { value }, text)));
  return { element, wrapper: h("div", { class: "field" }, h("label", { for: id }, labelText), element) };
}

function words(value) {
  return String(value || "").replaceAll("_", " ");
}

function json(value) {
  return value === null || value === undefined ? "—" : h("code", { class: "json" }, JSON.stringify(value));
}

export async function render(container) {
  const from = field("From", { type: "date", value: addDays(today(), -29), required: true });
  const to = field("To", { type: "date", value: today(), required: true });
  const action = select("Action", [["", "Every action"]]);
  const target = select("Changed", [["", "Anything"]]);
  const form = h(
    "form",
    { class: "filters", "aria-label": "Audit log filters" },
    h("div", { class: "filter-row" }, from.element, to.element, action.wrapper, target.wrapper),
    h("button", { type: "submit", class: "primary" }, "Show entries"),
  );
  const results = h("div", { class: "results" });
  const older = h("button", { type: "button" }, "Older entries");
  const newer = h("button", { type: "button" }, "Newer entries");
  const pager = h("nav", { class: "pager", "aria-label": "Audit log pages" }, newer, older);
  container.append(form, results, pager);

  // The pages seen so far, as the cursors that opened them (0: the first page).
  let cursors = [0];
  let entries = [];
  let nextPage = null;

  function fill(selectElement, values) {
    const chosen = selectElement.element.value;
    const first = selectElement.element.options[0];
    selectElement.element.replaceChildren(first, ...[...values].sort().map((value) => h("option", { value }, words(value))));
    selectElement.element.value = [...values].includes(chosen) ? chosen : "";
  }

  function draw() {
    const shown = entries.filter(
      (entry) => (!action.element.value || entry.action === action.element.value) && (!target.element.value || entry.target_type === target.element.value),
    );
    const page = cursors.length;
    const caption = `Audit log, page ${page}: ${shown.length} of ${entries.length} entries shown`;
    const rows = shown.map((entry) => [
      time(entry.time),
      entry.actor === "admin_key" ? `Admin key ${entry.admin_key_id}` : words(entry.actor),
      words(entry.action),
      `${words(entry.target_type)} ${entry.target_id || ""}`.trim(),
      json(entry.old_value),
      json(entry.new_value),
    ]);
    replace(results, entries.length ? table(caption, ["Time", "By", "Action", "Changed", "Before", "After"], rows) : h("p", {}, "No entries in this range."));
    older.disabled = nextPage === null;
    newer.disabled = cursors.length === 1;
  }

  async function load() {
    const answer = await call("GET", "/v2/admin/audit-log", {
      query: { start_date: from.input.value, end_date: to.input.value, page: cursors[cursors.length - 1] || undefined },
    });
    entries = answer.audit_log.entries;
    nextPage = answer.audit_log.next_page;
    fill(action, new Set(entries.map((entry) => entry.action)));
    fill(target, new Set(entries.map((entry) => entry.target_type)));
    draw();
    announce(`Audit log page ${cursors.length} loaded.`);
  }

  const safely = (work) => () => work().catch((error) => showError(error));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    cursors = [0];
    safely(load)();
  });
  action.element.addEventListener("change", draw);
  target.element.addEventListener("change", draw);
  older.addEventListener(
    "click",
    safely(async () => {
      cursors.push(nextPage);
      await load();
    }),
  );
  newer.addEventListener(
    "click",
    safely(async () => {
      cursors.pop();
      await load();
    }),
  );
  older.disabled = true;
  newer.disabled = true;
  try {
    await load();
  } catch (error) {
    if (error.status === 403) {
      replace(results, h("p", {}, error.message));
      form.hidden = true;
      pager.hidden = true;
      return;
    }
    throw error;
  }
}
