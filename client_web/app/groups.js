// @ts-check
// Groups (docs/protocol.md "Groups"): the home screen's "Your groups" area (the player's
// groups, and making one), a group's screen (/play#group=ID: its link, its members and
// who is online, its boards among the members, its members' challenges, and the owner's
// changes), and joining from a group's link (/g/ID?k=KEY). A group is its members' only:
// every request here is signed in, and the server refuses the rest (not_a_member). The
// group's screen watches the group (`group_show` with `watch`): the server sends it again
// as members come online or go, join or leave, and the screen redraws.

import { button, count, finishTime, h, heldTo, replace } from "./dom.js";
import { isoWeek, previousWeek } from "./league_watch.js";
import { ServerError, errorText } from "./link.js";
import { gotText } from "./ranking.js";
import { copyButton } from "./share.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */

// a group's id as its link gives it (the server's GROUP_ID_RE)
export const GROUP_ID = /^[a-z0-9]{10}$/;

/** the most characters a group's name has (protocol.md, `group_create`) */
const GROUP_NAME_MOST = 32;

/**
 * The "Your groups" area of the home screen: the player's groups, each a link to its
 * screen, and a form that makes one.
 * @param {App} app
 * @returns {HTMLElement}
 */
export function groupsArea(app) {
  const list = h("ul", { class: "group-list" });
  const note = h("p", { class: "note", role: "status" });
  const name = /** @type {HTMLInputElement} */ (
    h("input", {
      name: "group-name",
      minlength: 2,
      placeholder: "a new group's name",
      "aria-label": "a new group's name",
    })
  );
  heldTo(name, GROUP_NAME_MOST, "A group's name", (text) => {
    note.textContent = text;
  });
  const form = h(
    "form",
    {
      class: "group-create",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        try {
          const reply = await app.link.request("group_create", { name: name.value.trim() });
          app.go(`/play#group=${reply.group.id}`);
        } catch (error) {
          note.textContent = errorText(error);
        }
      },
    },
    name,
    h("button", { type: "submit" }, "Make a group"),
  );
  app.link.request("groups").then(
    (reply) => {
      const rows = reply.groups.map((/** @type {Message} */ g) =>
        h(
          "li",
          { dataset: { group: g.id } },
          h("a", { href: `/play#group=${g.id}` }, g.name),
          h(
            "span",
            { class: "muted" },
            ` · ${g.members} member${g.members === 1 ? "" : "s"}${g.owner ? " · yours" : ""}`,
          ),
        ),
      );
      replace(list, rows.length ? rows : h("li", { class: "muted" }, "None yet: make one, or open a group's link."));
    },
    (error) => (note.textContent = errorText(error)),
  );
  return h("section", { class: "groups-area" }, h("h2", {}, "Your groups"), list, form, note);
}

/**
 * The heading of a group's link refused, by the refusal's code: the link is good, but the
 * player is in as many groups as one may be, or the group is full; or it is not good.
 * @param {string} code
 */
export function joinRefused(code) {
  if (code === "too_many_groups") return "You are in as many groups as one may be";
  if (code === "group_full") return "This group is full";
  return "This group's link did not work";
}

/**
 * Join a group from its link's id and key, then show it; a refusal says why.
 * @param {App} app
 * @param {string} group
 * @param {string} key
 */
export async function joinGroup(app, group, key) {
  try {
    await app.link.request("group_join", { group, key });
    history.replaceState(null, "", `/play#group=${group}`);
    app.show(new GroupScreen(app, group));
  } catch (error) {
    const heading = joinRefused(error instanceof ServerError ? error.code : "");
    app.show({
      root: h(
        "section",
        { class: "group" },
        h("h1", {}, heading),
        h("p", { class: "note", role: "alert" }, errorText(error)),
        h("p", {}, h("a", { href: "/play#home" }, "Back to the games")),
      ),
    });
  }
}

/**
 * The weeks before this one whose group week boards the picker offers: a week board is
 * read from its days' daily boards, kept 31 days (docs/leaderboards.md), so the 3 weeks
 * before this one are whole; a week before those is missing days.
 */
export const PAST_WEEKS = 3;

/**
 * The boards a group's screen offers: every game's day, week, best times, wins and
 * ratings, and the races (the server's board ids; `week/GAME` is the group's own); with
 * `week` (this ISO week), each game's week boards of the `PAST_WEEKS` before it too.
 * @param {Message[]} games
 * @param {string | null} [week]
 * @returns {[string, string][]}
 */
export function boardChoices(games, week = null) {
  /** @type {string[]} */
  const past = [];
  for (let w = week; w && past.length < PAST_WEEKS;) past.push((w = previousWeek(w)));
  /** @type {[string, string][]} */
  const out = [
    ["races/week", "Races won this week"],
    ["races/all", "Races won, all time"],
  ];
  for (const g of games) {
    out.push(
      [`daily/${g.id}`, `${g.name}: today's daily`],
      [`week/${g.id}`, `${g.name}: this week's dailies`],
      ...past.map((w, n) => /** @type {[string, string]} */ ([`week/${g.id}/${w}`, pastWeekName(g.name, w, n === 0)])),
      [`best/${g.id}`, `${g.name}: best times`],
      [`wins/${g.id}`, `${g.name}: most wins`],
      [`rating/${g.id}`, `${g.name}: ratings`],
    );
  }
  return out;
}

/**
 * A past week's board, for people: "The Gate: last week's dailies, 2026-W48", "The Gate:
 * the dailies of 2026-W47".
 * @param {string} game the game's name
 * @param {string} week
 * @param {boolean} last whether it is last week
 */
function pastWeekName(game, week, last) {
  return last ? `${game}: last week's dailies, ${week}` : `${game}: the dailies of ${week}`;
}

/**
 * The picker of a group's boards showing `board`: its choices, and the one it reads. This
 * week's or today's board named by its date reads as this week's or today's; one the
 * choices lack (a week before those offered, a past day, a past week's races: an address
 * may name any) is a choice of its own, at the end, named by its day or week (the picker
 * had read "this week's dailies" over a past week's board).
 * @param {Message[]} games
 * @param {string} board
 * @param {{ week: string, day: string }} now this ISO week and today (UTC), by the server's clock
 * @returns {{ choices: [string, string][], value: string }}
 */
export function picker(games, board, now) {
  const choices = boardChoices(games, now.week);
  const [kind, id, when] = board.split("/");
  const current = kind === "daily" ? when === now.day : when === now.week;
  const value = when === undefined || current ? `${kind}/${id}` : board;
  if (choices.some(([v]) => v === value)) return { choices, value };
  const name = games.find((g) => g.id === id)?.name || id;
  const named =
    kind === "week"
      ? pastWeekName(name, when, false)
      : kind === "daily"
        ? `${name}: the daily of ${when}`
        : kind === "races"
          ? `Races won, ${when}`
          : board;
  return { choices: [...choices, [value, named]], value };
}

/**
 * A board entry's result in words, by the board's kind (and its game's `unit`: pairs off
 * where cards come off in pairs).
 * @param {Message} e
 * @param {string} kind
 * @param {string} [unit]
 */
export function resultText(e, kind, unit) {
  if (kind === "week") return e.wins ? `${e.wins} won of ${e.played} · ${finishTime(e.time_ms)}` : `${e.played} played`;
  if (kind === "wins" || kind === "races") return String(e.count);
  if (kind === "rating") return `${e.rating} · ${count(e.races, "race")}`;
  return e.won ? `won in ${finishTime(e.time_ms || 0)} · ${e.moves} moves` : gotText(e, unit);
}

/**
 * Why a group on screen is no longer the player's (a `group_gone` event), in words.
 * @param {Message} gone
 */
export function goneText(gone) {
  const name = gone.name || "this group";
  return gone.why === "deleted"
    ? `${name} was deleted by its owner.`
    : `You are no longer in ${name}: its owner removed you, or you left it elsewhere.`;
}

/**
 * A challenge's table entry in a group's box: a win's time, else how far it got (the
 * order is the table's: by time, then by cards home).
 * @param {Message} e
 * @param {string} [unit] the challenge's game's
 */
export function entryWords(e, unit) {
  return e.status === "won" ? `won in ${finishTime(e.time_ms || 0)}` : `${e.status}, ${gotText(e, unit)}`;
}

/**
 * The board a group's screen shows first (no `board=` in its address): the first game's
 * week board, the group's own (every member plays the same daily deals, raced or not), as
 * the terminal's `group top GROUP`; the races of the week from a server listing no game.
 * @param {Message[]} games the server's, as its welcome lists them
 */
export function defaultBoard(games) {
  return games.length ? `week/${games[0].id}` : "races/week";
}

/**
 * What leaving a group did, from `group_leave`'s reply: its `left` says who owns the
 * group now (the owner leaving hands it on), or null: it is gone. `name` is the group's as
 * shown (a server that does not say).
 * @param {Message} reply
 * @param {string} name
 * @param {boolean} owned whether the one leaving owned it (else nothing changed hands)
 */
export function leftText(reply, name, owned) {
  const left = reply.left;
  if (!left) return `You left ${name}.`;
  if (!owned) return `You left ${left.name}.`;
  if (left.owner == null) return `You left ${left.name}; you were its last member, so it is gone.`;
  return `You left ${left.name}; ${left.owner} owns it now.`;
}

export class GroupScreen {
  /**
   * @param {App} app
   * @param {string} id the group's
   * @param {string | null} [board] the board shown first (a hash's `board=`)
   */
  constructor(app, id, board = null) {
    this.app = app;
    this.id = id;
    this.board = board || defaultBoard(app.games);
    this.root = h("section", { class: "group" }, h("p", { class: "muted" }, "Loading the group…"));
    this.boardBox = h("div", { class: "group-board" });
    this.note = h("p", { class: "note", role: "status" });
    /** @type {Message[]} the members' challenges as last shown (a pushed group has none) */
    this.listed = [];
    this.gone = false;
    this.load();
  }

  destroy() {
    this.gone = true;
    this.app.link.request("group_show", { group: this.id, watch: false }).catch(() => {});
  }

  async load() {
    try {
      const reply = await this.app.link.request("group_show", { group: this.id, watch: true });
      this.listed = reply.challenges || [];
      this.render(reply);
    } catch (error) {
      replace(
        this.root,
        h("p", { class: "note", role: "alert" }, errorText(error)),
        h("p", {}, h("a", { href: "/play#home" }, "Back to the games")),
      );
    }
  }

  /**
   * @param {string} type
   * @param {Message} fields
   * @returns {Promise<Message | null>}
   */
  async ask(type, fields) {
    try {
      return await this.app.link.request(type, { group: this.id, ...fields });
    } catch (error) {
      this.note.textContent = errorText(error);
      return null;
    }
  }

  /**
   * @param {Message} reply a `group_show` reply
   * @param {boolean} [board] whether to ask for the board again (not for a pushed group:
   *   its board box is kept as it is)
   */
  render(reply, board = true) {
    const g = reply.group;
    const address = `${location.origin}${g.link}`;
    // (as text, whole: an input cut a phone's at ".../g/ID?k=", its key out of sight)
    const link = h("code", { "aria-label": "the group's link", class: "group-link" }, address);
    const members = g.members.map((/** @type {Message} */ m) =>
      h(
        "li",
        { class: m.online ? "member online" : "member", dataset: { member: m.name } },
        h("span", { class: "dot", "aria-hidden": "true" }),
        h("strong", {}, m.name),
        h("span", { class: "muted" }, [m.owner ? " · owner" : "", m.online ? " · online" : ""].join("")),
        g.owner && !m.you
          ? button(
              "Remove",
              async () => {
                if (!confirm(`Remove ${m.name} from ${g.name}? No link lets them back.`)) return;
                const changed = await this.ask("group_remove", { name: m.name });
                if (changed) this.render({ ...changed, challenges: reply.challenges });
              },
              { "data-act": "remove", class: "small" },
            )
          : null,
      ),
    );
    const now = this.app.link.serverNow();
    const { choices, value } = picker(this.app.games, this.board, {
      week: isoWeek(now),
      day: new Date(now).toISOString().slice(0, 10),
    });
    const select = h(
      "select",
      { "aria-label": "group board", onchange: () => this.showBoard(select.value) },
      choices.map(([value, text]) => h("option", { value }, text)),
    );
    select.value = value;
    const owner = g.owner
      ? [
          button(
            "New link",
            async () => {
              const changed = await this.ask("group_link", {});
              if (changed) this.render({ ...changed, challenges: reply.challenges });
            },
            { "data-act": "new-link" },
          ),
          button(
            "Delete the group",
            async () => {
              if (!confirm(`Delete ${g.name} for all its members?`)) return;
              if (await this.ask("group_delete", {})) this.app.go("/play#home");
            },
            { "data-act": "delete" },
          ),
        ]
      : null;
    replace(
      this.root,
      h("h1", {}, g.name),
      h("p", { class: "muted" }, `${g.members.length} of at most ${g.most} members · ${g.online} online`),
      h(
        "p",
        { class: "controls" },
        link,
        // (over plain http too, or the link left selected; the button says "Copied", as
        // every copy button does: it had said nothing, a notice "link copied" instead)
        copyButton(address, link, "Copy the link", { "data-act": "copy" }, "Link"),
      ),
      h("p", { class: "muted" }, "Whoever opens this link joins the group."),
      this.note,
      h("h2", {}, "Boards among the members"),
      select,
      this.boardBox,
      h("h2", {}, "Members"),
      h("ul", { class: "members" }, members),
      this.challenges(reply.challenges || []),
      h(
        "p",
        { class: "controls" },
        button(
          "Leave the group",
          async () => {
            if (!confirm(`Leave ${g.name}?`)) return;
            const left = await this.ask("group_leave", {});
            if (!left) return;
            this.app.go("/play#home");
            this.app.notice(leftText(left, g.name, Boolean(g.owner)));
          },
          { "data-act": "leave" },
        ),
        owner,
        button("Refresh", () => this.load(), { "data-act": "refresh" }),
      ),
    );
    if (board) this.showBoard(this.board);
  }

  /** @param {Message[]} listed */
  challenges(listed) {
    if (!listed.length) return null;
    return h(
      "section",
      { class: "group-challenges" },
      h("h2", {}, "Members' challenges"),
      listed.map(({ challenge, table }) =>
        h(
          "div",
          { class: "group-challenge" },
          h(
            "p",
            {},
            h("a", { href: `/c/${challenge.id}` }, `${challenge.player}: ${challenge.game_name}`),
            h("span", { class: "muted" }, ` · ${challenge.source}`),
          ),
          h(
            "ol",
            {},
            table.map((/** @type {Message} */ e) =>
              h("li", {}, `${e.player}${e.ghost ? " (ghost)" : ""}: ${entryWords(e, challenge.unit)}`),
            ),
          ),
        ),
      ),
    );
  }

  /** @param {string} board */
  async showBoard(board) {
    this.board = board;
    history.replaceState(null, "", `/play#group=${this.id}&board=${board}`);
    this.app.link.request("group_board", { group: this.id, board }).then(
      (page) => {
        if (this.board !== board) return;
        const whole = page.kind !== "week";
        // (pairs off in a game of pairs: the reply says so; a server before it did not, so
        // the game of "best/nestor", "daily/nestor/2026-11-27" is asked)
        const unit = page.unit || this.app.game(board.split("/")[1] || "")?.unit;
        const rows = page.entries.map((/** @type {Message} */ e) =>
          h(
            "tr",
            { dataset: { player: e.player } },
            h("td", { class: "n" }, String(e.place)),
            h("td", {}, e.player),
            h("td", {}, resultText(e, page.kind, unit)),
            whole ? h("td", { class: "n" }, String(e.rank)) : null,
          ),
        );
        const head = ["#", "player", page.kind === "week" ? "dailies" : "result", whole ? "overall" : null];
        replace(
          this.boardBox,
          h("h3", {}, page.title),
          h(
            "table",
            {},
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                head.filter((t) => t).map((t) => h("th", { class: t === "#" || t === "overall" ? "n" : "" }, t)),
              ),
            ),
            h("tbody", {}, rows),
          ),
          rows.length ? null : h("p", { class: "muted" }, "No member is on this board yet."),
          // a rating board: who is on it (docs/ratings.md), as on the whole board
          page.min_races
            ? h("p", { class: "muted" }, `A racer joins this board after ${count(page.min_races, "rated race")}.`)
            : null,
        );
      },
      (error) => replace(this.boardBox, h("p", { class: "note" }, errorText(error))),
    );
  }

  /**
   * The group pushed as it changes (who is online, who is in it): drawn again, its
   * challenges as last asked for.
   * @param {Message} message
   * @returns {boolean} whether it was this screen's
   */
  event(message) {
    if (message.type === "group_gone" && message.group === this.id && !this.gone) {
      this.gone = true; // (no longer watched: the server let go)
      replace(
        this.root,
        h("h1", {}, message.name || "A group"),
        h("p", { class: "note", role: "alert" }, goneText(message)),
        h("p", {}, h("a", { href: "/play#home" }, "Back to the games")),
      );
      return true;
    }
    if (message.type !== "group" || this.gone || !message.group || message.group.id !== this.id) return false;
    this.render({ ...message, challenges: this.listed }, false);
    return true;
  }

  // the connection came back: a watch is not brought back, so ask (and watch) again
  resumed() {
    this.load();
  }
}
