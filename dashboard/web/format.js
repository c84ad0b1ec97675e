// Numbers and dates as the tables show them. Numbers keep every digit (grouped), so a table
// shows exactly what the API answered.

import { UNLIMITED } from "./api.js";

const numbers = new Intl.NumberFormat("en-US");

export function number(value) {
  return numbers.format(value);
}

/** A limit: "no limit" for null or the API's "unlimited" value, "blocked" for 0. */
export function limit(value, unit = "") {
  if (value === null || value === undefined || value >= UNLIMITED) return "no limit";
  if (value === 0) return "blocked (0)";
  return unit ? `${number(value)} ${unit}` : number(value);
}

/** An ISO 8601 time as `YYYY-MM-DD HH:MM UTC`. */
export function time(iso) {
  if (!iso) return "";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** An ISO 8601 time's date, `YYYY-MM-DD`. */
export function day(iso) {
  return iso ? iso.slice(0, 10) : "";
}
