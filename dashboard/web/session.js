// The admin key of this browser tab. It lives in sessionStorage only: never in a cookie, a URL
// or the log, and it is gone when the tab closes or the user logs out.

const STORAGE_NAME = "glossa.admin-key";

export function key() {
  return sessionStorage.getItem(STORAGE_NAME);
}

export function logIn(adminKey) {
  sessionStorage.setItem(STORAGE_NAME, adminKey);
}

export function logOut() {
  sessionStorage.removeItem(STORAGE_NAME);
}
