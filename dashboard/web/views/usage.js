// Usage: characters by key (GET /v2/admin/analytics, group_by key or key_and_day) or by custom
// reporting tag (GET /v2/admin/analytics/custom-tags, aggregate_by period or day, every page
// followed through `next_page`), over a date range: a stacked bar chart per product over the
// days, a table with the exact numbers (for tags, the top N by total), and the data as CSV.

import { addDays, call, today } from "../api.js";
import { stackedBars } from "../chart.js";
import { csv, dataUrl } from "../csv.js";
import { field, h, replace, table, uid } from "../dom.js";
import { day, number } from "../format.js";
import { announce, showError } from "../notices.js";

/** The most pages of the custom-tag report followed for one view (100 entries each). */
const MAX_PAGES = 1000;

const KEY_PRODUCTS = [
  { label: "Text translation", field: "text_translation_characters" },
  { label: "Document translation", field: "document_translation_characters" },
  { label: "Text improvement", field: "text_improvement_characters" },
];
const TAG_PRODUCTS = [
  { label: "Text translation", field: "text_translation_characters" },
  { label: "Text improvement", field: "text_improvement_characters" },
];

function radios(legend, name, options, checked) {
  const inputs = {};
  const fieldset = h(
    "fieldset",
    { class: "choice" },
    h("legend", {}, legend),
    options.map(([value, text]) => {
      const id = uid(name);
      inputs[value] = h("input", { type: "radio", name, id, value, checked: value === checked });
      return h("span", { class: "radio" }, inputs[value], h("label", { for: id }, text));
    }),
  );
  const value = () => Object.keys(inputs).find((key) => inputs[key].checked);
  return { fieldset, value };
}

export async function render(container) {
  const from = field("From", { type: "date", value: addDays(today(), -29), required: true });
  const to = field("To", { type: "date", value: today(), required: true });
  const group = radios("Group by", "group", [["key", "Key"], ["tag", "Custom tag"]], "key");
  const detail = radios("Show", "detail", [["period", "Totals for the range"], ["day", "Day by day"]], "period");
  const top = field("Top tags shown", { type: "number", min: "1", max: "1000", value: "10", inputmode: "numeric" }, "Custom tags only; the CSV has every tag.");
  const form = h(
    "form",
    { class: "filters", "aria-label": "Usage filters" },
    h("div", { class: "filter-row" }, from.element, to.element, top.element),
    h("div", { class: "filter-row" }, group.fieldset, detail.fieldset),
    h("button", { type: "submit", class: "primary" }, "Show usage"),
  );
  const results = h("div", { class: "results", "aria-live": "polite", "aria-busy": "false" });
  container.append(form, results);
  let chart = null;

  async function load() {
    if (chart) chart.destroy();
    chart = null;
    const query = { start_date: from.input.value, end_date: to.input.value };
    if (!query.start_date || !query.end_date) throw new Error("Choose both dates of the range.");
    results.setAttribute("aria-busy", "true");
    replace(results, h("p", {}, "Loading…"));
    try {
      const view = group.value() === "tag" ? await byTag(query, detail.value(), Number(top.input.value) || 10) : await byKey(query, detail.value());
      chart = view.chart;
      replace(results, view.chart, view.table, view.download, view.note);
      view.chart.draw();
      announce(view.announcement);
    } finally {
      results.setAttribute("aria-busy", "false");
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load().catch((error) => {
      replace(results);
      showError(error);
    });
  });
  await load();
  return () => {
    if (chart) chart.destroy();
  };
}

/** Every day of the range, `YYYY-MM-DD`. */
function daysOf(start, end) {
  const days = [];
  for (let current = start; current <= end && days.length <= 366; current = addDays(current, 1)) days.push(current);
  return days;
}

/** One value per day and product, from entries with a date and a breakdown. */
function perDay(days, entries, products, breakdownOf) {
  const index = new Map(days.map((date, position) => [date, position]));
  const series = products.map((product) => ({ label: product.label, values: days.map(() => 0) }));
  for (const entry of entries) {
    const position = index.get(day(entry.usage_date));
    if (position === undefined) continue;
    products.forEach((product, which) => {
      series[which].values[position] += breakdownOf(entry)[product.field] || 0;
    });
  }
  return series;
}

function chartOf(title, days, series) {
  const totals = series.map((product) => `${product.label}: ${number(product.values.reduce((sum, value) => sum + value, 0))}`);
  return stackedBars(title, days, series, `Totals over the range: ${totals.join("; ")} characters.`);
}

function download(name, header, rows) {
  return h("p", {}, h("a", { class: "button", href: dataUrl(csv(header, rows)), download: name, "data-testid": "csv-download" }, "Download CSV"));
}

async function byKey(query, detail) {
  const daily = await call("GET", "/v2/admin/analytics", { query: { ...query, group_by: "key_and_day" } });
  const report = daily.usage_report;
  const entries = report.key_and_day_usages;
  const days = daysOf(query.start_date, query.end_date);
  const chart = chartOf("Characters per day by product (stacked)", days, perDay(days, entries, KEY_PRODUCTS, (entry) => entry.usage));

  let rows;
  if (detail === "day") {
    rows = entries.map((entry) => ({ key: entry.api_key, label: entry.api_key_label, date: day(entry.usage_date), usage: entry.usage }));
  } else {
    const totals = await call("GET", "/v2/admin/analytics", { query: { ...query, group_by: "key" } });
    rows = totals.usage_report.key_usages.map((entry) => ({ key: entry.api_key, label: entry.api_key_label, usage: entry.usage }));
  }
  rows.sort((a, b) => b.usage.total_characters - a.usage.total_characters);
  const withDate = detail === "day";
  const header = ["Key", ...(withDate ? ["Date"] : []), "Text translation", "Document translation", "Text improvement", "Total characters", "Speech to text (minutes)"];
  const cells = (row) => [
    ...(withDate ? [row.date] : []),
    row.usage.text_translation_characters,
    row.usage.document_translation_characters,
    row.usage.text_improvement_characters,
    row.usage.total_characters,
    row.usage.speech_to_text_minutes,
  ];
  const range = `${query.start_date} to ${query.end_date}`;
  const first = withDate ? 2 : 1;
  const shown = rows.map((row) => [`${row.label} (${row.key})`, ...cells(row).map((value, index) => (index + 1 >= first ? number(value) : value))]);
  const caption = `Usage by key, ${withDate ? "day by day" : "totals"}, ${range}`;
  const numeric = header.map((_, index) => index).filter((index) => index >= first);
  return {
    chart,
    table: rows.length ? table(caption, header, shown, { numeric }) : h("p", {}, `No usage by any key from ${range}.`),
    download: download(`usage-by-key-${query.start_date}-${query.end_date}.csv`, ["Key label", "Key", ...header.slice(1)], rows.map((row) => [row.label, row.key, ...cells(row)])),
    note: h("p", { class: "hint" }, `All keys together: ${number(report.total_usage.total_characters)} characters.`),
    announcement: `Usage by key loaded: ${rows.length} row${rows.length === 1 ? "" : "s"}.`,
  };
}

/** Every entry of the custom-tag report, following `next_page` until there is none. */
async function allTagEntries(query, aggregate) {
  const entries = [];
  let page;
  let pages = 0;
  do {
    const answer = await call("GET", "/v2/admin/analytics/custom-tags", { query: { ...query, aggregate_by: aggregate, page } });
    const report = answer.custom_tag_usage_report;
    entries.push(...report.usage);
    page = report.next_page;
    pages += 1;
  } while (page !== null && page !== undefined && pages < MAX_PAGES);
  return { entries, pages };
}

async function byTag(query, detail, topCount) {
  const daily = await allTagEntries(query, "day");
  const days = daysOf(query.start_date, query.end_date);
  const chart = chartOf("Tagged characters per day by product (stacked)", days, perDay(days, daily.entries, TAG_PRODUCTS, (entry) => entry.breakdown));

  const totals = detail === "day" ? daily : await allTagEntries(query, "period");
  // The top tags by their total over the range.
  const byTotal = new Map();
  for (const entry of totals.entries) {
    byTotal.set(entry.custom_tag, (byTotal.get(entry.custom_tag) || 0) + entry.breakdown.total_characters);
  }
  const ranked = [...byTotal.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
  const topTags = new Set(ranked.slice(0, Math.max(1, topCount)));
  const rank = new Map(ranked.map((tag, position) => [tag, position]));
  const rows = totals.entries.slice().sort((a, b) => rank.get(a.custom_tag) - rank.get(b.custom_tag) || day(a.usage_date).localeCompare(day(b.usage_date)));
  const withDate = detail === "day";
  const header = ["Custom tag", ...(withDate ? ["Date"] : []), "Text translation", "Text improvement", "Total characters"];
  const cells = (entry) => [
    ...(withDate ? [day(entry.usage_date)] : []),
    entry.breakdown.text_translation_characters,
    entry.breakdown.text_improvement_characters,
    entry.breakdown.total_characters,
  ];
  const first = withDate ? 2 : 1;
  const shown = rows
    .filter((entry) => topTags.has(entry.custom_tag))
    .map((entry) => [entry.custom_tag, ...cells(entry).map((value, index) => (index + 1 >= first ? number(value) : value))]);
  const range = `${query.start_date} to ${query.end_date}`;
  const caption = `Top ${topTags.size} of ${ranked.length} custom tag${ranked.length === 1 ? "" : "s"}, ${withDate ? "day by day" : "totals"}, ${range}`;
  const numeric = header.map((_, index) => index).filter((index) => index >= first);
  return {
    chart,
    table: rows.length ? table(caption, header, shown, { numeric }) : h("p", {}, `No tagged usage from ${range}.`),
    download: download(`usage-by-tag-${query.start_date}-${query.end_date}.csv`, header, rows.map((entry) => [entry.custom_tag, ...cells(entry)])),
    note: h("p", { class: "hint" }, `Read in ${totals.pages} page${totals.pages === 1 ? "" : "s"} of the report. Custom tags count text translation only.`),
    announcement: `Usage by custom tag loaded: ${rows.length} row${rows.length === 1 ? "" : "s"}.`,
  };
}
