// Cost control and the rate limit: GET/PUT /v2/admin/cost-control (Pro: a character limit per
// billing period for the whole subscription) and GET/PUT /v2/admin/rate-limit (the request rate
// each key may send; every plan may read it, Pro may change it).

import { call } from "../api.js";
import { field, h, replace } from "../dom.js";
import { number } from "../format.js";
import { announce, showError } from "../notices.js";

/** A whole number of 1 or more from a field, or `null` when empty. */
function wholeOrNull(input, what, least) {
  const text = input.value.trim();
  if (text === "") return null;
  if (!/^\d+$/.test(text) || Number(text) < least) throw new Error(`${what} must be a whole number of ${least} or more, or empty.`);
  return Number(text);
}

function section(id, title, ...children) {
  return h("section", { "aria-labelledby": id }, h("h2", { id }, title), ...children);
}

export async function render(container) {
  const costState = h("p", {});
  const costLimit = field("Character limit per billing period", { type: "text", inputmode: "numeric", autocomplete: "off" }, "Empty: no limit. The subscription's requests answer 456 once it is reached.");
  const costForm = h("form", { class: "inline-form" }, costLimit.element, h("button", { type: "submit", class: "primary" }, "Save cost control"));

  const rateState = h("p", {});
  const rate = field("Requests per second, per key", { type: "text", inputmode: "numeric", autocomplete: "off" }, "Empty: the default.");
  const burst = field("Burst (requests at once)", { type: "text", inputmode: "numeric", autocomplete: "off" }, "Empty: the default.");
  const rateForm = h("form", { class: "inline-form" }, rate.element, burst.element, h("button", { type: "submit", class: "primary" }, "Save rate limit"));

  container.append(
    section("cost-heading", "Cost control", costState, costForm),
    section("rate-heading", "Rate limit", rateState, rateForm),
  );

  function showCost(answer) {
    costLimit.input.value = answer.characters ?? "";
    replace(costState, answer.characters === null ? "No cost control limit is set." : `The limit is ${number(answer.characters)} characters per billing period.`);
  }
  function showRate(answer) {
    rate.input.value = answer.requests_per_second;
    burst.input.value = answer.burst;
    replace(
      rateState,
      `Each key may send ${number(answer.requests_per_second)} requests per second, in bursts of up to ${number(answer.burst)} ` +
        `(the default: ${number(answer.defaults.requests_per_second)} per second, bursts of ${number(answer.defaults.burst)}). ` +
        "A key over it gets 429 (too many requests).",
    );
  }

  costForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const characters = wholeOrNull(costLimit.input, "The character limit", 0);
      showCost(await call("PUT", "/v2/admin/cost-control", { body: { characters } }));
      announce("Cost control saved.");
    } catch (error) {
      showError(error);
    }
  });
  rateForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = {
        requests_per_second: wholeOrNull(rate.input, "Requests per second", 1),
        burst: wholeOrNull(burst.input, "The burst", 1),
      };
      showRate(await call("PUT", "/v2/admin/rate-limit", { body }));
      announce("Rate limit saved.");
    } catch (error) {
      showError(error);
    }
  });

  const [cost, limits] = await Promise.all([
    call("GET", "/v2/admin/cost-control").catch((error) => ({ error })),
    call("GET", "/v2/admin/rate-limit"),
  ]);
  if (cost.error) {
    if (cost.error.status !== 403) throw cost.error;
    replace(costState, cost.error.message);
    costForm.hidden = true;
  } else {
    showCost(cost);
  }
  showRate(limits);
}
