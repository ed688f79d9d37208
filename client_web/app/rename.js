// @ts-check
// The home screen's change of name: a small form behind a summary, the server's `rename`
// (docs/protocol.md#rename: once in 30 days, to a name nobody holds or had lately). A refusal
// is said under the form, in the server's words, and nothing changes; a change is told to the
// page (`renamed`), which shows the new name wherever it shows the player's.

import { h } from "./dom.js";
import { errorText } from "./link.js";

/**
 * What the box needs: the link's request, and what to do with the player once renamed.
 * @typedef {object} RenameWith
 * @property {(type: string, fields?: Record<string, any>) => Promise<Record<string, any>>} request
 * @property {(player: {id: string, name: string}) => void} renamed
 */

/**
 * The box: "Change your name", a field and a button, and a note for what the server said.
 * @param {string} name the player's name now
 * @param {RenameWith} with_
 */
export function renameBox(name, with_) {
  const input = h("input", {
    name: "new-name",
    required: true,
    minlength: 2,
    maxlength: 20,
    pattern: "[A-Za-z0-9_\\-]{2,20}",
    autocomplete: "nickname",
    value: name,
    "aria-label": "new name",
  });
  const note = h("p", { class: "note", role: "status" });
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
