// Keys: developer and admin keys (GET/POST /v2/admin/developer-keys and /admin-keys), renamed
// (PUT …/label), deactivated after a confirmation (PUT …/deactivate), and developer keys'
// limits (PUT /v2/admin/developer-keys/limits) beside their use in this billing period (GET
// /v2/admin/analytics?group_by=key). A new key's secret is shown once, in a dialog with a copy
// button; it is never stored.

import { call, maskedKeyId, period } from "../api.js";
import { confirmDanger, dialog, field, h, replace, table } from "../dom.js";
import { limit, number, time } from "../format.js";
import { announce, clearError, showError } from "../notices.js";

const KINDS = {
  developer: { path: "/v2/admin/developer-keys", title: "Developer keys", noun: "developer key" },
  admin: { path: "/v2/admin/admin-keys", title: "Admin keys", noun: "admin key" },
};

export async function render(container) {
  const sections = {};
  for (const [kind, about] of Object.entries(KINDS)) {
    const headingId = `${kind}-keys-heading`;
    sections[kind] = h("div", { class: "key-list" });
    container.append(
      h(
        "section",
        { "aria-labelledby": headingId },
        h("h2", { id: headingId }, about.title),
        createForm(kind, () => refresh()),
        sections[kind],
      ),
    );
  }
  async function refresh() {
    const { start, end } = await period();
    const [developerKeys, adminKeys, report] = await Promise.all([
      call("GET", KINDS.developer.path),
      call("GET", KINDS.admin.path),
      call("GET", "/v2/admin/analytics", { query: { start_date: start, end_date: end, group_by: "key" } }),
    ]);
    const used = new Map(report.usage_report.key_usages.map((entry) => [entry.api_key, entry.usage]));
    const range = `${start} to ${end}`;
    replace(sections.developer, keyTable("developer", developerKeys, used, range, refresh));
    replace(sections.admin, keyTable("admin", adminKeys, used, range, refresh));
  }
  await refresh();
}

function createForm(kind, refresh) {
  const about = KINDS[kind];
  const label = field(`Label of the new ${about.noun}`, { type: "text", maxlength: "200", autocomplete: "off" });
  const form = h(
    "form",
    { class: "inline-form" },
    label.element,
    h("button", { type: "submit", class: "primary" }, `Create ${about.noun}`),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = label.input.value.trim() ? { label: label.input.value.trim() } : {};
    let created;
    try {
      created = await call("POST", about.path, { body });
    } catch (error) {
      showError(error);
      return;
    }
    label.input.value = "";
    clearError();
    await showSecret(created, about);
    try {
      await refresh();
    } catch (error) {
      showError(error);
    }
  });
  return form;
}

/** The dialog that shows a new key's secret, this once, with a copy button. */
function showSecret(created, about) {
  return dialog(`New ${about.noun}: copy it now`, (close) => {
    const secret = field("The new key", { type: "text", readonly: true, value: created.key, class: "secret", "data-testid": "new-key-secret" });
    const result = h("p", { class: "hint", role: "status" });
    const copy = h("button", { type: "button", class: "primary" }, "Copy key");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(created.key);
        result.textContent = "Copied to the clipboard.";
      } catch {
        // Without clipboard access (an insecure origin, a refused permission), the key is
        // selected for the user to copy with Ctrl+C or the context menu.
        secret.input.focus();
        secret.input.select();
        result.textContent = "The browser did not allow copying: the key is selected, copy it with Ctrl+C (or ⌘+C).";
      }
    });
    return [
      h("p", {}, `This is the only time the key is shown. Store it safely: it gives access as “${created.label}”.`),
      secret.element,
      result,
      h("div", { class: "actions" }, copy, h("button", { type: "button", onclick: () => close() }, "Done")),
    ];
  });
}

function keyTable(kind, keys, used, range, refresh) {
  const about = KINDS[kind];
  if (keys.length === 0) return h("p", {}, `No ${about.noun}s yet.`);
  const developer = kind === "developer";
  const headers = ["Label", "Key ID", "Created", "Status"];
  if (developer) headers.push("Characters used", "Character limit", "Speech used (ms)", "Speech limit (ms)");
  headers.push("Actions");
  const rows = keys.map((key) => {
    const status = key.is_deactivated ? `Deactivated ${time(key.deactivated_time)}` : "Active";
    const row = [key.label, h("code", { class: "key-id" }, key.key_id), time(key.creation_time), status];
    if (developer) {
      const usage = used.get(maskedKeyId(key.key_id));
      const characters = usage ? usage.total_characters : 0;
      const speech = usage ? Math.round(usage.speech_to_text_minutes * 60_000) : 0;
      row.push(
        number(characters),
        limit(key.usage_limits.characters),
        number(speech),
        limit(key.usage_limits.speech_to_text_milliseconds),
      );
    }
    row.push(key.is_deactivated ? "—" : actions(kind, key, refresh));
    return row;
  });
  const numeric = developer ? [4, 5, 6, 7] : [];
  const caption = developer ? `${about.title} (use from ${range})` : `${about.title} (active and deactivated)`;
  return table(caption, headers, rows, { numeric });
}

function actions(kind, key, refresh) {
  const about = KINDS[kind];
  const run = (work) => async () => {
    try {
      const message = await work();
      if (!message) return;
      await refresh();
      announce(message);
    } catch (error) {
      showError(error);
    }
  };
  const buttons = [
    h("button", { type: "button", "aria-label": `Rename ${key.label}`, onclick: run(() => rename(kind, key)) }, "Rename"),
  ];
  if (kind === "developer") {
    buttons.push(
      h("button", { type: "button", "aria-label": `Limits of ${key.label}`, onclick: run(() => editLimits(key)) }, "Limits"),
    );
  }
  buttons.push(
    h(
      "button",
      { type: "button", class: "danger", "aria-label": `Deactivate ${key.label}`, onclick: run(() => deactivate(kind, key)) },
      "Deactivate",
    ),
  );
  return h("div", { class: "row-actions" }, buttons);
}

/** A dialog with a form; answers its values when submitted, `undefined` when cancelled. */
function formDialog(title, fields, submitText, read, note) {
  return dialog(title, (close) => {
    const form = h(
      "form",
      { method: "dialog" },
      note ? h("p", {}, note) : null,
      fields.map((entry) => entry.element),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary" }, submitText),
        h("button", { type: "button", onclick: () => close() }, "Cancel"),
      ),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      close(read());
    });
    return form;
  });
}

async function rename(kind, key) {
  const label = field("New label", { type: "text", maxlength: "200", value: key.label, required: true, autocomplete: "off" });
  const value = await formDialog(`Rename “${key.label}”`, [label], "Rename", () => label.input.value.trim());
  if (value === undefined) return null;
  await call("PUT", `${KINDS[kind].path}/label`, { body: { key_id: key.key_id, label: value } });
  return `Renamed to “${value}”.`;
}

/** A limit field's value: empty is no limit (`null`), else a whole number of 0 or more. */
function limitValue(input, name) {
  const text = input.value.trim();
  if (text === "") return null;
  if (!/^\d+$/.test(text)) throw new Error(`The ${name} limit must be a whole number (0 blocks the key), or empty for no limit.`);
  return Number(text);
}

async function editLimits(key) {
  const hint = "Empty: no limit. 0: the key cannot use any.";
  const characters = field("Character limit per billing period", { type: "text", inputmode: "numeric", value: key.usage_limits.characters ?? "" }, hint);
  const speech = field(
    "Speech to text limit per billing period (milliseconds)",
    { type: "text", inputmode: "numeric", value: key.usage_limits.speech_to_text_milliseconds ?? "" },
    hint,
  );
  const values = await formDialog(`Limits of “${key.label}”`, [characters, speech], "Save limits", () => ({
    characters: characters.input.value,
    speech: speech.input.value,
  }));
  if (values === undefined) return null;
  characters.input.value = values.characters;
  speech.input.value = values.speech;
  const body = {
    key_id: key.key_id,
    characters: limitValue(characters.input, "character"),
    speech_to_text_milliseconds: limitValue(speech.input, "speech"),
  };
  await call("PUT", "/v2/admin/developer-keys/limits", { body });
  return `Limits of “${key.label}” saved.`;
}

async function deactivate(kind, key) {
  const confirmed = await confirmDanger(
    `Deactivate “${key.label}”?`,
    [
      h("p", {}, "The key stops working at once, and this cannot be undone: a deactivated key cannot be turned on again."),
      h("p", {}, "Key ID: ", h("code", { class: "key-id" }, key.key_id)),
    ],
    "Deactivate the key",
  );
  if (!confirmed) return null;
  await call("PUT", `${KINDS[kind].path}/deactivate`, { body: { key_id: key.key_id } });
  return `“${key.label}” is deactivated.`;
}
