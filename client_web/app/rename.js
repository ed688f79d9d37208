// @ts-check
// The home screen's change of name: a small form behind a summary, the server's `rename`
// (docs/protocol.md#rename: once in 30 days, to a name nobody holds or had lately). A refusal
// is said under the form, in the server's words, and nothing changes; a change is told to the
// page (`renamed`), which shows the new name wherever it shows the player's.

import { h, heldTo } from "./dom.js";
import { errorText } from "./link.js";
import { say } from "./focus.js";

/**
 * What the box needs: the link's request, and what to do with the player once renamed.
 * @typedef {object} RenameWith
 * @property {(type: string, fields?: Record<string, any>) => Promise<Record<string, any>>} request
 * @property {(player: {id: string, name: string}) => void} renamed
 */

/** the most characters a name has (protocol.md, `register`) */
export const NAME_MOST = 20;
/** what a name may be: 2 to 20 letters (A to Z), digits, - or _, the first a letter or a digit */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{1,19}$/;
const RULE = `2 to ${NAME_MOST} letters (A to Z), digits, - or _, the first a letter or a digit`;

/**
 * A name's field: 2 to 20 letters (A to Z), digits, - or _, the first a letter or a digit. It has no maxlength: a longer
 * name pasted was cut to its first 20 without a word. What is wrong with a name is said
 * as it is typed (`told`; "" once it is right again), and a name that cannot be one keeps
 * the form from being sent: the browser says the rule (the field's title), and so does
 * `told`, again each time (`again`), the field marked invalid until it is typed in again
 * (the browser's bubble alone had said it: the form's status said nothing).
 * @param {Record<string, string>} attrs
 * @param {(text: string, again?: boolean) => void} told
 * @returns {HTMLInputElement}
 */
export function nameField(attrs, told) {
  const input = /** @type {HTMLInputElement} */ (
    h("input", {
      required: true,
      // (said by the browser when the name cannot be one: the form is not sent)
      title: RULE,
      autocomplete: "nickname",
      ...attrs,
    })
  );
  // no pattern attribute: it is matched against the field as typed, and a space after the
  // name (a phone's keyboard puts one after a word it completes) failed it; the name sent
  // is the field trimmed, and that is what is checked
  const over = heldTo(input, NAME_MOST, "A name", told);
  const check = () => {
    const name = input.value.trim();
    input.setCustomValidity(over(name) || (NAME.test(name) ? "" : RULE));
  };
  input.addEventListener("input", check);
  input.addEventListener("input", () => input.removeAttribute("aria-invalid"));
  input.addEventListener("invalid", () => {
    const name = input.value.trim();
    input.setAttribute("aria-invalid", "true");
    told(over(name) || (name ? `"${name}" cannot be a name: ${RULE}.` : `Type a name: ${RULE}.`), true);
  });
  check();
  return input;
}

/**
 * The box: "Change your name", a field and a button, and a note for what the server said.
 * @param {string} name the player's name now
 * @param {RenameWith} with_
 */
export function renameBox(name, with_) {
  const note = h("p", { class: "note", role: "status", id: "rename-note" });
  const input = nameField(
    { name: "new-name", value: name, "aria-label": "new name", "aria-describedby": "rename-note" },
    (text, again) => say(note, text, again),
  );
  return h(
    "details",
    { class: "rename" },
    h("summary", {}, "Change your name"),
    h(
      "p",
      { class: "muted" },
      "Boards and rooms show your new name; replays show the name a game was played under too. " +
        "You can change it once in 30 days, and your old name stays yours for a while.",
    ),
    h(
      "form",
      {
        onsubmit: async (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const wanted = input.value.trim();
          try {
            const reply = await with_.request("rename", { name: wanted });
            note.textContent =
              reply.was && reply.was !== reply.player.name
                ? `You race as ${reply.player.name} now (was ${reply.was}).`
                : `You race as ${reply.player.name}.`;
            with_.renamed(reply.player);
          } catch (error) {
            note.textContent = errorText(error);
            input.setAttribute("aria-invalid", "true");
            input.focus();
          }
        },
      },
      input,
      h("button", { type: "submit", "data-act": "rename" }, "Change it"),
    ),
    note,
  );
}
