// @ts-check
// Sharing: a copy button, and the "Challenge a friend" box every result screen of a
// finished game has (solo, race results, the daily, practice, a challenge raced): it
// asks the server for the game's challenge (`challenge_create`, the game's id as the
// replay) and shows its link (this page's origin + `/c/ID`), a copy button and the share
// line. The same game always gives the same challenge, so asking twice is harmless.

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
 * A button that copies `text` to the clipboard, and says whether it could.
 * @param {string} text
 * @param {string} [label]
 * @param {Record<string, string>} [attrs]
 */
export function copyButton(text, label = "Copy", attrs = { "data-act": "copy" }) {
  const copy = button(
    label,
    async () => {
      try {
        await navigator.clipboard.writeText(text);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select the line to copy it";
      }
    },
    attrs,
  );
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
 * The link, its copy button and the share line of a challenge made.
 * @param {Challenge} challenge
 */
export function shareBox(challenge) {
  const url = challengeUrl(challenge);
  const line = shareText(challenge);
  const field = h("input", { class: "share", readonly: true, value: url, "aria-label": "the challenge's link" });
  // the line shown is the line copied: where the clipboard cannot be written (a page over
  // plain http from another machine) the button says to select it
  return h(
    "div",
    { class: "challenge-share", dataset: { challenge: challenge.id } },
    h("div", { class: "share-row" }, field, copyButton(url, "Copy link", { "data-act": "copy-challenge" })),
    h(
      "p",
      { class: "share-line" },
      h("code", {}, line),
      " ",
      copyButton(line, "Copy the line", { "data-act": "copy-share" }),
    ),
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
