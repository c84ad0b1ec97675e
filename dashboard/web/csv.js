// CSV files built in the browser (RFC 4180: comma-separated, CRLF line ends, fields quoted when
// they hold a comma, a quote or a line end), offered as a `data:` link: no object URL, so the
// Content-Security-Policy needs no `blob:` source.

function quoted(value) {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV text of a header row and rows. */
export function csv(header, rows) {
  return [header, ...rows].map((row) => row.map(quoted).join(",")).join("\r\n") + "\r\n";
}

/** A `data:` URL holding the CSV text. */
export function dataUrl(text) {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
}
