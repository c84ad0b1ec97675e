// The page's two live regions: `#alert` (role="alert") for errors, read out at once, and
// `#status` (role="status") for quiet confirmations ("Key renamed.").

function region(id) {
  return document.getElementById(id);
}

/** Shows an error (an `ApiError` or any `Error`) in plain words. */
export function showError(error) {
  region("status").textContent = "";
  region("alert").textContent = error && error.message ? error.message : String(error);
}

export function clearError() {
  region("alert").textContent = "";
}

/** A confirmation, announced politely. */
export function announce(text) {
  clearError();
  region("status").textContent = text;
}
