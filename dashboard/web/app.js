// The dashboard's entry point: the login, the layout and the hash routes (#/overview, #/keys,
// #/usage, #/audit, #/settings, #/voice). Every view is a module under views/ with
// `render(container)`, which may answer a function that cleans up when the view is left.

import { call } from "./api.js";
import { field, h, replace } from "./dom.js";
import { announce, clearError, showError } from "./notices.js";
import * as session from "./session.js";
import * as audit from "./views/audit.js";
import * as keys from "./views/keys.js";
import * as overview from "./views/overview.js";
import * as settings from "./views/settings.js";
import * as usage from "./views/usage.js";
import * as voice from "./views/voice.js";

const VIEWS = {
  overview: { title: "Overview", module: overview },
  keys: { title: "Keys", module: keys },
  usage: { title: "Usage", module: usage },
  audit: { title: "Audit log", module: audit },
  settings: { title: "Cost control and rate limit", module: settings },
  voice: { title: "Voice", module: voice },
};

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const logoutButton = document.getElementById("logout");
let cleanup = null;

function routeName() {
  const name = window.location.hash.startsWith("#/") ? window.location.hash.slice(2) : "";
  return Object.hasOwn(VIEWS, name) ? name : "overview";
}

async function show() {
  if (cleanup) cleanup();
  cleanup = null;
  clearError();
  const loggedIn = Boolean(session.key());
  nav.hidden = !loggedIn;
  logoutButton.hidden = !loggedIn;
  if (!loggedIn) {
    renderLogin();
    return;
  }
  const name = routeName();
  const view = VIEWS[name];
  document.title = `${view.title} · Glossa admin`;
  for (const link of nav.querySelectorAll("a")) {
    if (link.getAttribute("href") === `#/${name}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const heading = h("h1", { tabindex: "-1" }, view.title);
  const content = h("div", { class: "view" });
  replace(main, heading, content);
  heading.focus();
  try {
    const done = await view.module.render(content);
    if (typeof done === "function") {
      if (content.isConnected) cleanup = done;
      else done();
    }
  } catch (error) {
    if (content.isConnected) showError(error);
  }
}

/** What a refused login means, in plain words. */
function refusal(error) {
  const said = error.serverMessage || "";
  if (error.status !== 403) return error.message;
  if (said.includes("needs an admin key")) {
    return (
      "This is not an admin key. The dashboard needs an admin key (one that ends in :adm); " +
      "developer keys work with the translation API only."
    );
  }
  if (said.includes("deactivated")) return "This key has been deactivated. Log in with another admin key.";
  if (said.includes("not valid")) return "This key is not valid. Check that it was copied whole, then try again.";
  return error.message;
}

function renderLogin() {
  document.title = "Log in · Glossa admin";
  const keyField = field("Admin key", {
    type: "password",
    name: "admin-key",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
  }, "It stays in this browser tab only, until you log out or close the tab.");
  const form = h(
    "form",
    { class: "login", novalidate: true },
    keyField.element,
    h("button", { type: "submit", class: "primary" }, "Log in"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const adminKey = keyField.input.value.trim();
    if (!adminKey) {
      showError(new Error("Enter an admin key to log in."));
      keyField.input.focus();
      return;
    }
    try {
      // Listing the developer keys needs an admin key: a developer key gets 403.
      await call("GET", "/v2/admin/developer-keys", { adminKey });
    } catch (error) {
      showError(new Error(refusal(error)));
      keyField.input.focus();
      return;
    }
    keyField.input.value = "";
    session.logIn(adminKey);
    if (!window.location.hash.startsWith("#/")) window.location.hash = "#/overview";
    await show();
  });
  const heading = h("h1", { tabindex: "-1" }, "Log in");
  replace(
    main,
    heading,
    h(
      "p",
      {},
      "Manage keys, limits and usage with an admin key of your subscription. ",
      "The dashboard uses the admin API only, with the key you enter here.",
    ),
    form,
  );
  keyField.input.focus();
}

logoutButton.addEventListener("click", () => {
  session.logOut();
  show();
  announce("Logged out.");
});

window.addEventListener("hashchange", () => {
  if (window.location.hash.startsWith("#/")) show();
});

show();
