// @ts-check
// Sharing: copying (`copyText`: every copy button's, over plain http too), and the
// "Challenge a friend" box every result screen of a finished game has (solo, race
// results, the daily, practice, a challenge raced): it asks the server for the game's
// challenge (`challenge_create`, the game's id as the replay) and shows its link (this
// page's origin + `/c/ID`), a copy button and the share line. The same game always
// gives the same challenge, so asking twice is harmless.

import { button, h, replace } from "./dom.js";
import { keepFocus } from "./focus.js";

/**
 * A challenge as the server sends it (`challenge_create`'s reply, docs/protocol.md).
 * @typedef {object} Challenge
 * @property {string} id
 * @property {string} link its address on this server, `/c/ID`
 * @property {string} share the share line, with `link` in it
 */

/**
 * The whole text of `field` selected: an input's value, or an element's text.
 * @param {HTMLElement} field
 */
function selectAll(field) {
  if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length); // (iOS selects a read-only field so)
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(field);
  const selection = getSelection();
  if (!selection) return;
  selection.removeAllRanges();
  selection.addRange(range);
}

/**
 * What to do where nothing could copy `what`, its text left selected: on a touch screen,
 * which has no keyboard shortcut, the menu a selection opens; elsewhere the keys.
 * @param {string} what what was selected, for people ("Link")
 */
export function copyAdvice(what) {
  if (matchMedia("(pointer: coarse)").matches) return `${what} selected: copy it from the menu`;
  return /Mac/.test(navigator.userAgent) ? "Press Cmd+C" : "Press Ctrl+C";
}

/**
 * Copy `text`, shown in `field`: by the clipboard's API where the page has it (only a
 * secure context does: https, or localhost); else, or where it refuses, by selecting the
 * field's text and `execCommand("copy")`, which works over plain http too (a friend's
 * phone at http://192.168.1.5:8765, where every copy button had failed); where that fails
 * too, the text is left selected. What the button says after: "Copied", or how to copy.
 * @param {string} text
 * @param {HTMLElement} field the input or the element showing `text`
 * @param {string} [what] what it is, for people ("Link", "Code")
 * @param {HTMLElement | null} [back] where the focus goes back to once copied (the button)
 * @returns {Promise<string>}
 */
export async function copyText(text, field, what = "Link", back = null) {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return "Copied";
    }
  } catch {
    /* refused: copied otherwise */
  }
  selectAll(field);
  let copied;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  if (!copied) return copyAdvice(what);
  if (back) back.focus(); // (a keyboard's focus was on the button pressed)
  getSelection()?.removeAllRanges();
  return "Copied";
}

/**
 * A button that copies `text`, shown in `field`, and says whether it could (`copyText`).
 * @param {string} text
 * @param {HTMLElement} field the input or the element showing `text`
 * @param {string} [label]
 * @param {Record<string, string>} [attrs]
 * @param {string} [what] what it copies, for people ("Link", "Code")
 */
export function copyButton(text, field, label = "Copy", attrs = { "data-act": "copy" }, what = "Line") {
  const copy = button(label, async () => (copy.textContent = await copyText(text, field, what, copy)), attrs);
  return copy;
}

/**
 * The full address of a challenge, for people: `link` is the server's `/c/ID`.
 * @param {Challenge} challenge
 */
export function challengeUrl(challenge) {
  return `${location.origin}${challenge.link}`;
}

/**
 * The share line with its link made whole, for pasting anywhere.
 * @param {Challenge} challenge
 */
function shareText(challenge) {
  return challenge.share.replace(challenge.link, challengeUrl(challenge));
}

/**
 * The share line's text with its challenge's id kept whole: a line too long for its box
 * breaks before the id, not inside it ("...c/ft4bc4npyoitn6b", then "n" alone).
 * @param {string} line
 * @param {string} url the challenge's link, in the line
 * @returns {(string | HTMLElement)[]}
 */
function unbrokenId(line, url) {
  const id = url.slice(url.lastIndexOf("/") + 1);
  const at = line.lastIndexOf(id);
  if (!id || at < 0) return [line];
  return [line.slice(0, at), h("wbr"), h("span", { class: "whole" }, id), line.slice(at + id.length)];
}

/**
 * The link, its copy button and the share line of a challenge made.
 * @param {Challenge} challenge
 */
export function shareBox(challenge) {
  const url = challengeUrl(challenge);
  const line = shareText(challenge);
  const field = h("input", { class: "share", readonly: true, value: url, "aria-label": "the challenge's link" });
  const code = h("code", {}, ...unbrokenId(line, url));
  // the line shown is the line copied: where nothing can copy it, it is left selected
  return h(
    "div",
    { class: "challenge-share", dataset: { challenge: challenge.id } },
    h(
      "div",
      { class: "share-row" },
      field,
      copyButton(url, field, "Copy link", { "data-act": "copy-challenge" }, "Link"),
    ),
    h("p", { class: "share-line" }, code, " ", copyButton(line, code, "Copy the line", { "data-act": "copy-share" })),
  );
}

/**
 * The "Challenge a friend" box for finished game `replay`: one node, kept by its screen
 * and put back on every redraw, so what it shows survives them.
 * @param {{ link: import("./link.js").Link }} app
 * @param {string} replay the finished game's id
 */
export function challengeMaker(app, replay) {
  const note = h("p", { class: "note", role: "status" });
  const box = h("div", { class: "challenge-maker" });
  const ask = async () => {
    try {
      const reply = await app.link.request("challenge_create", { replay });
      // (pressed from the keyboard: the focus on the link's copy button that replaces it)
      keepFocus(
        box,
        () =>
          replace(
            box,
            h("p", { class: "muted" }, "Send this link: whoever opens it races your game's ghost on the same deal."),
            shareBox(reply.challenge),
          ),
        () => box.querySelector("button"),
      );
    } catch (error) {
      note.textContent = error instanceof Error ? error.message : String(error);
    }
  };
  replace(box, button("Challenge a friend", ask, { "data-act": "challenge" }), note);
  return box;
}
