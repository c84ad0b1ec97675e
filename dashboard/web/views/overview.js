// Overview: the billing period's usage against its limits (GET /v2/usage), its breakdown by
// product (GET /v2/admin/analytics over the period's days) and the cost control limit (GET
// /v2/admin/cost-control, Pro only).

import { UNLIMITED, call, period } from "../api.js";
import { h, table } from "../dom.js";
import { day, limit, number } from "../format.js";

const DAY_MS = 86_400_000;

/** A used/limit pair as text and a meter (none without a limit). */
function usedOf(used, max, unit) {
  const text = `${number(used)} ${unit} of ${limit(max, unit)}`;
  if (max === null || max === undefined || max >= UNLIMITED || max <= 0) return text;
  const share = Math.min(100, (used / max) * 100);
  return [
    text,
    h("meter", { min: "0", max: String(max), value: String(Math.min(used, max)), "aria-label": `${share.toFixed(1)} % used` }),
  ];
}

export async function render(container) {
  const { usage, start, end, known } = await period();
  const [analytics, costControl] = await Promise.all([
    call("GET", "/v2/admin/analytics", { query: { start_date: start, end_date: end } }),
    call("GET", "/v2/admin/cost-control").catch((error) => ({ error })),
  ]);
  const total = analytics.usage_report.total_usage;

  const periodFacts = [];
  if (known) {
    const daysLeft = Math.max(0, Math.ceil((Date.parse(usage.end_time) - Date.now()) / DAY_MS));
    periodFacts.push(
      h("dt", {}, "Billing period"),
      h("dd", {}, `${day(usage.start_time)} to ${day(usage.end_time)}`),
      h("dt", {}, "Days left"),
      h("dd", { "data-testid": "days-left" }, String(daysLeft)),
    );
  } else {
    periodFacts.push(h("dt", {}, "Billing period"), h("dd", {}, "Not reported for Free subscriptions; the breakdown covers the last 30 days."));
  }
  const costText = costControl.error
    ? costControl.error.status === 403
      ? "Not available on this plan"
      : costControl.error.message
    : costControl.characters === null
      ? "No limit set"
      : `${number(costControl.characters)} characters per billing period`;
  periodFacts.push(h("dt", {}, "Cost control"), h("dd", {}, costText, " ", h("a", { href: "#/settings" }, "Change")));

  const speechRow =
    usage.speech_to_text_milliseconds_count === undefined
      ? []
      : [["Speech to text", usedOf(usage.speech_to_text_milliseconds_count, usage.speech_to_text_milliseconds_limit, "ms")]];
  const limits = table(
    "Usage against the limits of this billing period",
    ["What", "Used"],
    [["Characters (translation, documents and text improvement)", usedOf(usage.character_count, usage.character_limit, "characters")], ...speechRow],
  );
  const breakdown = table(
    `Characters by product, ${start} to ${end}`,
    ["Product", "Characters"],
    [
      ["Text translation", number(total.text_translation_characters)],
      ["Document translation", number(total.document_translation_characters)],
      ["Text improvement", number(total.text_improvement_characters)],
      ["Total", number(total.total_characters)],
      ["Speech to text (minutes)", number(total.speech_to_text_minutes)],
    ],
    { numeric: [1] },
  );
  container.append(
    h("section", { "aria-labelledby": "period-heading" }, h("h2", { id: "period-heading" }, "This billing period"), h("dl", { class: "facts" }, periodFacts)),
    limits,
    breakdown,
  );
}
