// @ts-check
// One player on every device: a link code to enter on another device (shown with its
// countdown), the name form's way in with one (this browser then plays as that player,
// with a token of its own), and the player's devices, each with "Sign out", and "Sign out
// everywhere else". Loaded (`import()`) the first time one of its boxes is opened.

import { button, clock, h } from "./dom.js";
import { ServerError, deviceLabel, errorText, storeToken } from "./link.js";
import { copyButton } from "./share.js";

// the terminal client's own server when none is named (client_cli/config.py)
const TERMINAL_DEFAULT = "ws://127.0.0.1:8765";

/**
 * A `patience-race` command as it works pasted: `--server` too where this page's server
 * is not the terminal's default (the link code's command had none, and failed so).
 * @param {string} words
 * @param {string} url this page's server, as the link opens it (`ws://host:port/`)
 */
export function terminalCommand(words, url) {
  const server = url.replace(/\/$/, "");
  return server === TERMINAL_DEFAULT ? `patience-race ${words}` : `patience-race ${words} --server ${server}`;
}

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */

// the link codes' symbols (the server's domain/devices.py ALPHABET): no 0, 1, I, L, O, U
const CODE = /^[2-9A-HJKMNP-TV-Z]{8}$/;

/**
 * A link code as typed (any case, dashes and spaces anywhere) as the server keeps it, or
 * null when it cannot be one.
 * @param {string} typed
 */
export function normalCode(typed) {
  const code = typed.replace(/[\s-]/g, "").toUpperCase();
  return CODE.test(code) ? code : null;
}

/**
 * A server time as the rest of the app writes one: the day year first, as the daily's
 * days are named, and a 24-hour clock, both UTC like those days (and the terminal's
 * `devices`), marked UTC on each row. The browser's locale wrote it before, a day that
 * read "03/01/2027" one way on one device and the other way on the next.
 * @param {number} ms
 */
export function when(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** @type {(code: string, said: string) => void} the code box shown's news of its code */
let codeNews = () => {};

/**
 * A link code was used (`link_used`) or replaced by one asked for on another device
 * (`link_revoked`): the box showing it says so, and by what.
 * @param {Message} message
 */
export function linkNews(message) {
  codeNews(message.code, linkSaid(message));
}

/**
 * What a link code's news says.
 * @param {Message} message `link_used` or `link_revoked`
 */
export function linkSaid(message) {
  return message.type === "link_used"
    ? `It has been used: ${message.device} plays as you now.`
    : `It no longer works: a newer code was asked for on ${message.device}.`;
}

/**
 * The link code box, under "Play as yourself on another device": a button that asks the
 * server for a code, then the code, a copy button and the time left, counting down.
 * @param {App} app
 */
export function linkCodeBox(app) {
  const shown = h("div", { class: "link-code", hidden: true });
  const note = h("p", { class: "note", role: "status" });
  /** @type {ReturnType<typeof setInterval> | null} */
  let ticking = null;
  const ask = button(
    "Show a link code",
    async () => {
      note.textContent = "";
      let made;
      try {
        made = await app.link.request("link_code");
      } catch (error) {
        note.textContent = errorText(error);
        return;
      }
      const left = h("span", { class: "muted", "data-left": "" });
      const code = h("code", { class: "code", "data-code": made.code }, made.code);
      shown.replaceChildren(
        h("p", {}, code, " ", copyButton(made.code, code, "Copy the code", { "data-act": "copy-code" }, "Code")),
        h(
          "p",
          {},
          "Enter it on your other device: in a browser, on the name form's “Have a link code?”; in a terminal, ",
          h("code", {}, terminalCommand(`link ${made.code}`, app.link.url())),
          ". ",
          left,
        ),
        h("p", { class: "muted" }, "It works once. Anyone who enters it plays as you, so keep it to yourself."),
      );
      shown.hidden = false;
      ask.textContent = "Show a new link code";
      if (ticking !== null) clearInterval(ticking);
      const tick = () => {
        const ms = made.expires - app.link.serverNow();
        if (!shown.isConnected || ms <= 0) {
          if (ticking !== null) clearInterval(ticking);
          ticking = null;
          if (ms <= 0) left.textContent = "It has expired: ask for a new one.";
          return;
        }
        left.textContent = `It expires in ${clock(ms)}.`;
      };
      tick();
      ticking = setInterval(tick, 1000);
      // used on the other device (`link_used`, main.js), or replaced by a code asked for
      // there (`link_revoked`): said, and no longer counted down as if it still worked
      // (a second device tried it and was refused)
      codeNews = (code, said) => {
        if (code !== made.code || !shown.isConnected) return;
        if (ticking !== null) clearInterval(ticking);
        ticking = null;
        left.textContent = said;
        ask.textContent = "Show a link code";
      };
    },
    { "data-act": "link-code" },
  );
  return h(
    "div",
    { class: "devices-link" },
    h("p", {}, "A link code signs another device in as you, with a key of its own, for a few minutes: the easy way."),
    ask,
    note,
    shown,
  );
}

/**
 * The player's devices: each with its name, when added and last seen, and "Sign out"
 * (not this one: there is no password to come back with); then "Sign out everywhere
 * else", asked twice.
 * @param {App} app
 */
export function devicesBox(app) {
  const list = h("ul", { class: "device-list" });
  const note = h("p", { class: "note", role: "status" });
  const box = h("div", { class: "devices" }, list, note);

  /** @param {Message[]} devices */
  const draw = (devices) => {
    const others = devices.filter((d) => !d.this);
    const rows = devices.map((d) =>
      h(
        "li",
        { dataset: { device: d.id } },
        h("strong", { class: "label" }, d.label),
        d.this ? h("span", { class: "muted" }, " (this device)") : null,
        h("br", {}),
        h("span", { class: "muted" }, `added ${when(d.added)} · last signed in ${when(d.seen)} (UTC)`),
        d.this
          ? null
          : button("Sign out", () => signOut({ device: d.id }, `Signed out ${d.label}.`), { "data-act": "sign-out" }),
      ),
    );
    list.replaceChildren(...rows);
    const everywhere = button(
      "Sign out everywhere else",
      () => {
        everywhere.replaceWith(
          h(
            "p",
            { class: "confirm" },
            `Sign out ${others.length === 1 ? "the other device" : `all ${others.length} other devices`}? Each will need a link code to play as you again. `,
            button("Yes, sign them out", () => signOut({ everywhere: true }, "Every other device is signed out."), {
              "data-act": "sign-out-everywhere",
            }),
          ),
        );
      },
      { "data-act": "ask-sign-out-everywhere" },
    );
    box.querySelector(".everywhere")?.remove();
    if (others.length) box.insertBefore(h("div", { class: "everywhere" }, everywhere), note);
  };

  /**
   * @param {Message} fields
   * @param {string} done
   */
  const signOut = async (fields, done) => {
    try {
      draw((await app.link.request("sign_out", fields)).devices);
      note.textContent = done;
    } catch (error) {
      note.textContent = errorText(error);
    }
  };

  app.link.request("devices").then(
    (reply) => draw(reply.devices),
    (error) => (note.textContent = errorText(error)),
  );
  return box;
}

/**
 * The name form's way in with a link code: this browser is signed in as the code's
 * player, with a token of its own (kept as a registered one is), and `signedIn` is told
 * the `linked` reply.
 * @param {App} app
 * @param {(reply: Message) => void} signedIn
 */
export function linkCodeForm(app, signedIn) {
  const input = h("input", {
    name: "link-code",
    autocomplete: "one-time-code",
    autocapitalize: "characters",
    spellcheck: "false",
    maxlength: 16,
    placeholder: "ABCD-EFGH",
    "aria-label": "link code",
  });
  const note = h("p", { class: "note", role: "status" });
  return h(
    "div",
    { class: "link-form" },
    h(
      "p",
      {},
      "On a device where you play, open “Play as yourself on another device” and show a link code (in a terminal: patience-race link), then enter it here.",
    ),
    h(
      "form",
      {
        onsubmit: async (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const code = normalCode(input.value);
          if (code === null) {
            note.textContent = "A link code is 8 letters and digits, like ABCD-EFGH (no 0, 1, I, L, O or U).";
            input.focus();
            return;
          }
          try {
            const reply = await app.link.request("link", { code, device: deviceLabel() });
            storeToken(reply.token);
            signedIn(reply);
          } catch (error) {
            note.textContent = error instanceof ServerError ? error.message : String(error);
            input.focus();
          }
        },
      },
      input,
      h("button", { type: "submit" }, "Sign in with the code"),
    ),
    note,
  );
}
