// Voice: the translated-speech switch (GET/PUT /v2/admin/translated-speech, a closed beta off
// until an admin turns it on) and the spoken terms lists (beta) that real-time voice sessions
// name by `spoken_terms_id` (GET/POST /v2/admin/spoken-terms, GET/PUT/DELETE …/{id}): listed,
// created, edited in a dialog, deleted after a confirmation. The API checks every name and term;
// its refusals are shown as it words them. The list endpoint is not paged: a subscription holds
// at most 100 lists, all in one answer.

import { call } from "../api.js";
import { confirmDanger, dialog, field, h, replace, table, uid } from "../dom.js";
import { number, time } from "../format.js";
import { announce, clearError, showError } from "../notices.js";

const SWITCH = "/v2/admin/translated-speech";
const LISTS = "/v2/admin/spoken-terms";
const MAX_LISTS = 100;
const TERMS_HINT =
  "One term per line: names and jargon the recogniser should expect. Up to 250 terms of up to 100 characters, " +
  "1,000 characters in all; none twice.";

function section(id, title, ...children) {
  return h("section", { "aria-labelledby": id }, h("h2", { id, tabindex: "-1" }, title), ...children);
}

/** The terms typed one per line; blank lines are no terms. The API trims and checks the rest. */
function lines(text) {
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}

function listPath(list) {
  return `${LISTS}/${encodeURIComponent(list.spoken_terms_id)}`;
}

/** A refused list in plain words: 456 here is the number of lists, not the character quota. */
function listError(error) {
  if (error.status !== 456) return error;
  return new Error(
    `This subscription already holds ${MAX_LISTS} spoken terms lists, the most it may: delete one to create another.` +
      (error.serverMessage ? ` (The server said: ${error.serverMessage})` : ""),
  );
}

export async function render(container) {
  // Translated speech.
  const speechState = h("p", {});
  const speechId = uid("field");
  const speechHintId = `${speechId}-hint`;
  const speechBox = h("input", { type: "checkbox", id: speechId, "aria-describedby": speechHintId });
  const speechForm = h(
    "form",
    { class: "stack-form" },
    h(
      "div",
      { class: "field" },
      h("div", { class: "check" }, speechBox, h("label", { for: speechId }, "Allow translated speech")),
      h(
        "p",
        { class: "hint", id: speechHintId },
        "Real-time voice sessions may then ask for their translations spoken (target_media_languages). " +
          "Sessions opened afterwards get the change; open sessions keep what they asked for.",
      ),
    ),
    h("button", { type: "submit", class: "primary" }, "Save translated speech"),
  );

  // Spoken terms lists.
  const name = field("Name of the new list", { type: "text", autocomplete: "off" });
  const terms = field("Terms of the new list, one per line", { rows: "6", spellcheck: "false" }, TERMS_HINT, "textarea");
  const createForm = h(
    "form",
    { class: "stack-form", "aria-label": "New spoken terms list" },
    name.element,
    terms.element,
    h("button", { type: "submit", class: "primary" }, "Create list"),
  );
  const listArea = h("div", { class: "terms-lists" });

  container.append(
    section("speech-heading", "Translated speech (closed beta)", speechState, speechForm),
    section(
      "terms-heading",
      "Spoken terms lists (beta)",
      h(
        "p",
        {},
        "A real-time voice session names a list by its ID (spoken_terms_id); its terms help the recogniser " +
          "with names and jargon. A change reaches a session at its next connection.",
      ),
      createForm,
      listArea,
    ),
  );

  function showSpeech(answer) {
    speechBox.checked = answer.translated_speech;
    replace(
      speechState,
      answer.translated_speech
        ? "Translated speech is on: real-time voice sessions may ask for spoken translations."
        : "Translated speech is off: real-time voice sessions that ask for spoken translations are refused (403).",
    );
  }

  async function refresh() {
    const answer = await call("GET", LISTS);
    replace(listArea, listTable(answer.spoken_terms, refresh));
  }

  speechForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("PUT", SWITCH, { body: { enabled: speechBox.checked } });
      showSpeech(answer);
      announce(answer.translated_speech ? "Translated speech is on." : "Translated speech is off.");
    } catch (error) {
      showError(error);
    }
  });

  createForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    let created;
    try {
      created = await call("POST", LISTS, { body: { name: name.input.value, terms: lines(terms.input.value) } });
    } catch (error) {
      showError(listError(error));
      return;
    }
    name.input.value = "";
    terms.input.value = "";
    try {
      await refresh();
      announce(`Spoken terms list “${created.name}” created.`);
    } catch (error) {
      showError(error);
    }
  });

  const [speech] = await Promise.all([call("GET", SWITCH).catch((error) => ({ error })), refresh()]);
  if (speech.error) {
    if (speech.error.status !== 403) throw speech.error;
    replace(speechState, speech.error.message);
    speechForm.hidden = true;
  } else {
    showSpeech(speech);
  }
}

function listTable(lists, refresh) {
  if (lists.length === 0) return h("p", {}, "No spoken terms lists yet.");
  const rows = lists.map((list) => [
    list.name,
    number(list.terms.length),
    list.terms.slice(0, 5).join(", ") + (list.terms.length > 5 ? ", …" : ""),
    h("code", { class: "key-id" }, list.spoken_terms_id),
    time(list.creation_time),
    time(list.updated_time),
    actions(list, refresh),
  ]);
  return table(
    `Spoken terms lists (${lists.length} of at most ${MAX_LISTS}, oldest first)`,
    ["Name", "Terms", "First terms", "ID", "Created", "Changed", "Actions"],
    rows,
    { numeric: [1] },
  );
}

function actions(list, refresh) {
  const run = (work) => async () => {
    try {
      const message = await work();
      if (!message) return;
      await refresh();
      announce(message);
    } catch (error) {
      showError(listError(error));
      // A list deleted meanwhile (404) leaves the table: show what the API holds now.
      if (error.status === 404) refresh().catch(() => {});
    }
  };
  return h(
    "div",
    { class: "row-actions" },
    h("button", { type: "button", "aria-label": `Edit ${list.name}`, onclick: run(() => edit(list)) }, "Edit"),
    h(
      "button",
      { type: "button", class: "danger", "aria-label": `Delete ${list.name}`, onclick: run(() => confirmDelete(list)) },
      "Delete",
    ),
  );
}

/**
 * The list as the API holds it now, in a dialog to change its name and terms. The dialog stays
 * open when the API refuses a value, with its message, so nothing typed is lost.
 */
async function edit(list) {
  const current = await call("GET", listPath(list));
  clearError();
  const saved = await dialog(`Edit “${current.name}”`, (close) => {
    const name = field("Name", { type: "text", value: current.name, autocomplete: "off" });
    const terms = field("Terms, one per line", { rows: "10", spellcheck: "false" }, TERMS_HINT, "textarea");
    terms.input.value = current.terms.join("\n");
    const problem = h("p", { class: "alert", role: "alert" });
    const form = h(
      "form",
      { method: "dialog", class: "stack-form" },
      h("p", {}, "ID: ", h("code", { class: "key-id" }, current.spoken_terms_id)),
      name.element,
      terms.element,
      problem,
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary" }, "Save list"),
        h("button", { type: "button", onclick: () => close() }, "Cancel"),
      ),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      problem.textContent = "";
      try {
        close(await call("PUT", listPath(current), { body: { name: name.input.value, terms: lines(terms.input.value) } }));
      } catch (error) {
        problem.textContent = listError(error).message;
      }
    });
    return form;
  });
  if (saved === undefined) return null;
  return `Spoken terms list “${saved.name}” saved.`;
}

async function confirmDelete(list) {
  const confirmed = await confirmDanger(
    `Delete “${list.name}”?`,
    [
      h(
        "p",
        {},
        "The list and its terms are deleted, and this cannot be undone. Sessions that name it go on; " +
          "their next connections get no terms.",
      ),
      h("p", {}, "ID: ", h("code", { class: "key-id" }, list.spoken_terms_id)),
    ],
    "Delete the list",
  );
  if (!confirmed) return null;
  await call("DELETE", listPath(list));
  // The row and its buttons are gone: focus goes to the lists' heading.
  document.getElementById("terms-heading")?.focus();
  return `“${list.name}” is deleted.`;
}
