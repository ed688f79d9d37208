// @ts-check
// The player's recovery key: the token this browser signs in with, shown only on request and
// behind a warning, to copy to another device (or keep); and the name form's way to sign in
// with one. Anyone holding the key plays as its player, so it is never shown unasked, and a
// key that signs in no one says so on the name form after the page reloads with it.

import { button, h } from "./dom.js";
import { forgetToken, storeToken, storedToken } from "./link.js";
import { copyButton } from "./share.js";

// the note the name form shows once a key was tried (sessionStorage: this tab only)
const TRIED_KEY = "patience-race.recovery-tried";
// a token as the server makes them (secrets.token_urlsafe(24): 32 URL-safe characters)
const TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

/**
 * Whether `text` has the shape of a recovery key (the server still decides whose it is).
 * @param {string} text
 */
export function isKey(text) {
  return TOKEN.test(text.trim());
}

/**
 * The home screen's box: `first` (the link codes' part: devices.js, the easier way), then
 * the key behind a warning and a button, then a copy button.
 * @param {HTMLElement | null} [first]
 */
export function recoveryBox(first = null) {
  const shown = h("p", { class: "recovery-key", hidden: true });
  const show = button(
    "Show my recovery key",
    () => {
      const token = storedToken() || "";
      const key = h("code", { "data-key": token }, token);
      shown.replaceChildren(key, " ", copyButton(token, key, "Copy the key", { "data-act": "copy-key" }, "Key"));
      shown.hidden = false;
      show.hidden = true;
    },
    { "data-act": "show-key" },
  );
  return h(
    "details",
    { class: "recovery" },
    h("summary", {}, "Play as yourself on another device"),
    first,
    h(
      "p",
      {},
      (first
        ? "Or copy your recovery key instead (this browser's own key, good until signed out): "
        : "Your recovery key signs in as you: ") +
        "paste it on another device's name form to play there as the same player. " +
        "Anyone who has it can play as you, so keep it to yourself.",
    ),
    show,
    shown,
  );
}

/** The name form's way in with a key: it is kept, and the page reloads signed in with it. */
/** Whether the page was reloaded with a recovery key just entered (recoveryForm says how it went). */
export function keyTried() {
  return Boolean(sessionStorage.getItem(TRIED_KEY));
}

export function recoveryForm() {
  const input = h("input", {
    name: "key",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "recovery key",
    "aria-label": "recovery key",
  });
  const note = h("p", { class: "note", role: "status" });
  if (sessionStorage.getItem(TRIED_KEY) && !storedToken()) {
    note.textContent = "That recovery key signs in no one here: check it, or pick a name.";
  }
  sessionStorage.removeItem(TRIED_KEY);
  return h(
    "details",
    { class: "recovery", open: Boolean(note.textContent) },
    h("summary", {}, "Have a recovery key?"),
    h(
      "form",
      {
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const key = input.value.trim();
          if (!isKey(key)) {
            note.textContent = "A recovery key is 32 letters, digits, - and _: paste it whole.";
            input.focus();
            return;
          }
          forgetToken();
          storeToken(key);
          sessionStorage.setItem(TRIED_KEY, "1");
          location.reload();
        },
      },
      input,
      h("button", { type: "submit" }, "Sign in with it"),
    ),
    note,
  );
}
