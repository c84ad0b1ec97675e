// The public API, called from the browser with the admin key. Every call goes to this origin
// (the Content-Security-Policy allows no other); errors come back as `ApiError`s whose message
// says in plain words what happened and what to do.

import * as session from "./session.js";

/** What `/v2/usage` and the analytics report when there is no limit. */
export const UNLIMITED = 1_000_000_000_000;

export class ApiError extends Error {
  constructor(status, message, serverMessage = "") {
    super(message);
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/**
 * Calls the API: `call("GET", "/v2/admin/analytics", { query: { start_date } })`, or with a
 * JSON `body`. Answers the parsed JSON; throws an `ApiError`.
 */
export async function call(method, path, { query = {}, body, adminKey = session.key() } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, value);
  }
  const headers = { Authorization: `Service-Auth-Key ${adminKey}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
  } catch {
    throw new ApiError(0, "The server could not be reached. Check the network connection, then try again.");
  }
  // A deletion answers 204 without a body.
  if (response.status === 204) return null;
  if (response.ok) return response.json();
  let serverMessage = "";
  try {
    serverMessage = String((await response.json()).message || "");
  } catch {
    // Not every failure has a JSON body (a proxy's error page); the status says enough.
  }
  throw new ApiError(response.status, plainWords(response, serverMessage), serverMessage);
}

/** What an error status means for the person using the dashboard. */
function plainWords(response, serverMessage) {
  const status = response.status;
  const said = serverMessage ? ` (The server said: ${serverMessage})` : "";
  switch (status) {
    case 400:
      return `The request was not accepted: ${serverMessage || "a value is not valid."}`;
    case 403:
      if (serverMessage && !/^(Forbidden|Authorization failure)/.test(serverMessage)) return serverMessage;
      return "Access refused: this key is not an active admin key. Log out and log in with an admin key." + said;
    case 404:
      return `Not found: ${serverMessage || "the item does not exist (any more)."}`;
    case 429:
    case 529: {
      const wait = Number.parseInt(response.headers.get("Retry-After") || "", 10);
      const when = Number.isFinite(wait) ? `about ${wait} second${wait === 1 ? "" : "s"}` : "a moment";
      return `Too many requests: this key has reached its request rate limit. Wait ${when}, then try again.`;
    }
    case 456:
      return (
        "Quota exceeded: the character limit for this billing period has been reached. " +
        "Raise the key's limit or the cost control limit, or wait for the next billing period."
      );
    default:
      if (status >= 500) return `The server could not complete the request (error ${status}). Try again later.` + said;
      return `The request failed (error ${status}).` + said;
  }
}

/** Today's date (UTC), as the analytics count days: `YYYY-MM-DD`. */
export function today() {
  return new Date().toISOString().slice(0, 10);
}

/** The date `days` days after `date` (`YYYY-MM-DD`, UTC). */
export function addDays(date, days) {
  const moment = new Date(`${date}T00:00:00Z`);
  moment.setUTCDate(moment.getUTCDate() + days);
  return moment.toISOString().slice(0, 10);
}

/**
 * The billing period's first day and `/v2/usage` itself. Free subscriptions are not told their
 * period; for them the range is the last 30 days.
 */
export async function period() {
  const usage = await call("GET", "/v2/usage");
  const start = usage.start_time ? usage.start_time.slice(0, 10) : addDays(today(), -29);
  return { usage, start, end: today(), known: Boolean(usage.start_time) };
}

/** How the analytics mask a key: the first and last four characters of its id. */
export function maskedKeyId(keyId) {
  return `${keyId.slice(0, 4)}****${keyId.slice(-4)}`;
}
