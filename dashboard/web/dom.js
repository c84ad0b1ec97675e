// Small DOM helpers. Every text goes in through textContent, never as HTML, so nothing the API
// answers can become markup; styles are classes only (the Content-Security-Policy refuses style
// attributes).

/** An element: `h("button", { class: "primary", type: "button", onclick: f }, "Save")`. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      element.className = value;
    } else if (name === "value") {
      element.value = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

let unique = 0;
/** An id no other element has, for label `for` and `aria-*` references. */
export function uid(prefix) {
  unique += 1;
  return `${prefix}-${unique}`;
}

/**
 * A labelled input (or other control: `tag`, such as "textarea"): `{input, element}`, the label
 * naming the control by id, and `hint` below it describing it.
 */
export function field(labelText, attributes = {}, hint, tag = "input") {
  const id = attributes.id || uid("field");
  const hintId = hint ? `${id}-hint` : undefined;
  const input = h(tag, { ...attributes, id, "aria-describedby": hintId });
  return {
    input,
    element: h(
      "div",
      { class: "field" },
      h("label", { for: id }, labelText),
      input,
      hint ? h("p", { class: "hint", id: hintId }, hint) : null,
    ),
  };
}

/** A table in a focusable, labelled scroll region (wide tables scroll sideways on a phone). */
export function table(caption, headers, rows, { numeric = [] } = {}) {
  const headRow = h(
    "tr",
    {},
    headers.map((header, index) => h("th", { scope: "col", class: numeric.includes(index) ? "num" : null }, header)),
  );
  const body = rows.map((row) =>
    h(
      "tr",
      {},
      row.map((cell, index) =>
        index === 0
          ? h("th", { scope: "row" }, cell)
          : h("td", { class: numeric.includes(index) ? "num" : null }, cell),
      ),
    ),
  );
  const captionId = uid("caption");
  return h(
    "div",
    { class: "table-scroll", role: "region", "aria-labelledby": captionId, tabindex: "0" },
    h("table", {}, h("caption", { id: captionId }, caption), h("thead", {}, headRow), h("tbody", {}, body)),
  );
}

/**
 * A modal dialog (the native <dialog>: focus moves into it and is trapped there, Escape closes
 * it, and focus returns to what opened it). `build(close)` answers the dialog's content;
 * `close(value)` ends it. Answers a promise of the value it was closed with (`undefined` when
 * dismissed).
 */
export function dialog(title, build) {
  return new Promise((resolve) => {
    const titleId = uid("dialog-title");
    const element = h("dialog", { "aria-labelledby": titleId, class: "dialog" });
    let result;
    const close = (value) => {
      result = value;
      element.close();
    };
    element.append(h("h2", { id: titleId }, title), ...[build(close)].flat());
    element.addEventListener("close", () => {
      element.remove();
      resolve(result);
    });
    document.body.append(element);
    element.showModal();
  });
}

/**
 * Asks to confirm a destructive action: a dialog titled `title` with `paragraphs`, a danger button
 * labelled `action` and Cancel (which has the focus). Answers a promise of whether it was confirmed.
 */
export async function confirmDanger(title, paragraphs, action) {
  const confirmed = await dialog(title, (close) => [
    ...paragraphs,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "danger", onclick: () => close(true) }, action),
      h("button", { type: "button", autofocus: true, onclick: () => close(false) }, "Cancel"),
    ),
  ]);
  return confirmed === true;
}
