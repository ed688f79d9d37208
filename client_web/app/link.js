// @ts-check
// The link to the race server: one websocket to this page's own origin, msgpack frames,
// requests matched to their replies by id, events handed to a callback, and reconnection
// with backoff (0.5 s, doubling up to 10 s) that signs in again with the stored token, so
// the server's `welcome.resume` brings back whatever the player was doing. A close with
// 4001 (signed in elsewhere) is final. The protocol is docs/protocol.md.

// the vendored library (client_web/vendor/), served as /web/vendor/msgpack/
import { encode } from "../vendor/msgpack/encode.mjs";
import { decode } from "../vendor/msgpack/decode.mjs";

/**
 * A message of the protocol, a request's fields or a reply or event as decoded.
 * @typedef {Record<string, any>} Message
 */

/**
 * What the page hears from the link: every event (a message with no request id), the
 * link's state ("up", "retrying" with why, "signed_out"), and each `welcome`.
 * @typedef {object} Listeners
 * @property {(message: Message) => void} onEvent
 * @property {(state: string, text?: string) => void} onState
 * @property {(welcome: Message) => void} onWelcome
 */

/**
 * A request waiting for its reply.
 * @typedef {object} Waiting
 * @property {(reply: Message) => void} resolve
 * @property {(error: ServerError) => void} reject
 * @property {ReturnType<typeof setTimeout>} timer
 */

const PROTOCOL = 1;
const CLIENT = "patience-race-web/0.1";
const TOKEN_KEY = "patience-race-token";
const SIGNED_OUT = 4001;
const TIMEOUT_MS = 30000;
// a move (or an undo, a resign, cards home, a ping) is answered in milliseconds: one not
// answered in this long means a link that has stalled without closing (a phone between
// networks), which is dropped and opened again, so that `welcome.resume` says what the
// server took (a move sent into a stalled link counted there, and the page never knew)
const STALL_MS = 8000;
const QUICK = new Set(["move", "undo", "resign", "home", "ping"]);
// a link up with nothing heard on it for this long (a race's countdown, a player thinking)
// is asked a `ping`, which a link dead without closing leaves unanswered (above): so a
// dead link is found in about 25 s though nothing was being sent (it stood "up" until the
// server forfeited the racer); a link that is heard from is never pinged
export const IDLE_MS = 15000;
// what a request the link could not carry is refused with: a screen clears such a note
// once the link is back and its game resynced (it stood under the board, the link up)
export const LINK_NOTES = [
  "not connected: reconnecting",
  "the server did not answer: reconnecting",
  "the connection dropped",
];

/**
 * The pause before reconnection attempt `attempt` (0 first), in ms: 0.5 s, doubling,
 * at most 10 s.
 * @param {number} attempt
 */
export function backoff(attempt) {
  return Math.min(500 * 2 ** attempt, 10000);
}

/**
 * What this browser calls itself in the player's list of devices (`hello`'s `device`):
 * "Chrome on Android", "Safari on iPhone", from the user agent's string.
 * @param {string} [agent]
 */
export function deviceLabel(agent = navigator.userAgent) {
  const browsers = [
    [/Edg(e|A|iOS)?\//, "Edge"],
    [/OPR\/|Opera/, "Opera"],
    [/Firefox\/|FxiOS\//, "Firefox"],
    [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
    [/Safari\//, "Safari"],
  ];
  const systems = [
    [/Android/, "Android"],
    [/iPhone/, "iPhone"],
    [/iPad/, "iPad"],
    [/CrOS/, "ChromeOS"],
    [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "Mac"],
    [/Linux/, "Linux"],
  ];
  /** @param {(RegExp | string)[][]} table */
  const find = (table) => {
    const found = table.find(([pattern]) => /** @type {RegExp} */ (pattern).test(agent));
    return found ? /** @type {string} */ (found[1]) : null;
  };
  const browser = find(browsers) || "a browser";
  const system = find(systems);
  return system ? `${browser} on ${system}` : browser;
}

/**
 * What a tab signed out by the server (`signed_out`) says, in words: where the player went.
 * @param {Message} event
 */
export function signedOutText(event) {
  const reason = typeof event.reason === "string" && event.reason ? event.reason : "signed in elsewhere";
  const said = reason[0].toUpperCase() + reason.slice(1);
  if (event.cause === "signed_out") {
    return `${said}. This browser no longer plays as you: to play here again, sign in with a link code from a device still signed in.`;
  }
  return `${said}. This tab has stopped, so the two do not take turns throwing each other out: reload it to play here again (that signs the other one out).`;
}

/** @returns {string | null} */
export function storedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** @param {string} token */
export function storeToken(token) {
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    /* private mode: this tab only */
  }
}

export function forgetToken() {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* nothing kept */
  }
}

/**
 * What went wrong, as a line for the player: an error's message.
 * @param {unknown} error
 */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

export class ServerError extends Error {
  /**
   * @param {string} code the protocol's error code (docs/protocol.md), or the link's own
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class Link {
  /** @param {Listeners} listeners */
  constructor({ onEvent, onState, onWelcome }) {
    this.onEvent = onEvent;
    this.onState = onState;
    this.onWelcome = onWelcome;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.nextId = 1;
    /** @type {Map<number, Waiting>} */
    this.pending = new Map();
    this.attempt = 0;
    this.signedOut = false;
    /** @type {string | null} why the stored token was refused, if it was */
    this.refused = null;
    /** @type {Message | null} */
    this.welcome = null;
    // the server's clock minus ours, ms: ours the page's monotonic clock (performance.now),
    // which a device's clock set or corrected (by hand, by NTP) does not move; Date.now's
    // did, and every clock shown jumped with it until the next sign-in
    this.offset = 0;
    this.frames = { sent: 0, received: 0 };
    /** @type {ReturnType<typeof setTimeout> | undefined} the next attempt to connect */
    this.retry = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} the countdown to it, said */
    this.saying = undefined;
    /** when the link last heard a frame (performance.now) */
    this.heardAt = performance.now();
    /** @type {ReturnType<typeof setInterval> | undefined} the idle link's check (idle()) */
    this.idling = undefined;
    // the browser knows the network has gone: the link is dropped now (a move made
    // meanwhile is refused on the spot, not sent into a socket that holds it); and once
    // it is back, connect at once rather than at the backoff's next try
    addEventListener("offline", () => {
      if (this.ws) this.drop(this.ws, "the network is down");
    });
    addEventListener("online", () => {
      if (this.ws || this.signedOut) return;
      clearTimeout(this.retry);
      this.attempt = 0;
      this.open();
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/`;
  }

  open() {
    clearInterval(this.saying);
    const ws = new WebSocket(this.url());
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.heardAt = performance.now();
      this.hello(ws);
    };
    ws.onmessage = (message) => this.read(message.data);
    ws.onclose = (closed) => this.closed(ws, closed);
  }

  /** @param {WebSocket} ws */
  async hello(ws) {
    /** @type {Message} */
    const fields = { protocol: PROTOCOL, client: CLIENT, device: deviceLabel() };
    const token = storedToken();
    if (token) fields.token = token;
    let welcome;
    try {
      welcome = await this.request("hello", fields);
    } catch (error) {
      if (error instanceof ServerError && error.code === "bad_token") {
        forgetToken(); // a token this server does not know: start afresh
        this.refused = error.message; // (the name form says why: a device signed out, say)
        welcome = await this.request("hello", { protocol: PROTOCOL, client: CLIENT });
      } else {
        return;
      }
    }
    if (this.ws !== ws) return;
    this.attempt = 0;
    this.welcome = welcome;
    // a first guess at the server's clock (a countdown may start before the pings end)
    if (Number.isInteger(welcome.time)) this.offset = welcome.time - performance.now();
    this.onState("up");
    this.onWelcome(welcome);
    this.measureClock();
    clearInterval(this.idling);
    this.idling = setInterval(() => this.idle(ws), 1000);
  }

  /**
   * A ping where `ws`, up, has heard nothing for IDLE_MS and nothing is waiting for an
   * answer (a request unanswered finds a dead link by itself): unanswered, it drops the link.
   * @param {WebSocket} ws
   */
  idle(ws) {
    if (this.ws !== ws) return void clearInterval(this.idling);
    if (this.pending.size || performance.now() - this.heardAt < IDLE_MS) return;
    this.request("ping").catch(() => {});
  }

  async measureClock() {
    /** @type {[number, number] | null} */
    let best = null;
    for (let i = 0; i < 3; i += 1) {
      const t0 = performance.now();
      let pong;
      try {
        pong = await this.request("ping");
      } catch {
        return;
      }
      const t1 = performance.now();
      if (best === null || t1 - t0 < best[0]) best = [t1 - t0, pong.time - (t0 + t1) / 2];
    }
    if (best !== null) this.offset = Math.round(best[1]);
  }

  /** The server's clock now, ms (as measured at sign-in, run on by the monotonic clock). */
  serverNow() {
    return Math.round(performance.now() + this.offset);
  }

  /** @param {unknown} data */
  read(data) {
    if (!(data instanceof ArrayBuffer)) return;
    this.frames.received += 1;
    this.heardAt = performance.now();
    let message;
    try {
      message = decode(new Uint8Array(data));
    } catch {
      return;
    }
    if (message === null || typeof message !== "object") return;
    if ("id" in message) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.type === "error") waiting.reject(new ServerError(message.code, message.message));
      else waiting.resolve(message);
      return;
    }
    if (message.type === "signed_out") this.signedOut = true;
    this.onEvent(message);
  }

  /**
   * Send request `type` with `fields` (null and undefined ones left out): its reply, or
   * a ServerError (the server's error, or the link's: not connected, dropped, no answer
   * in 30 s).
   * @param {string} type
   * @param {Message} [fields]
   * @returns {Promise<Message>}
   */
  request(type, fields = {}) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new ServerError("not_connected", LINK_NOTES[0]));
    }
    const id = this.nextId++;
    /** @type {Message} */
    const message = { type, id };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && value !== null) message[key] = value;
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.pending.delete(id);
          reject(new ServerError("timeout", LINK_NOTES[1]));
          this.drop(ws, "no answer from the server"); // (stalled: opened again, resumed)
        },
        QUICK.has(type) ? STALL_MS : TIMEOUT_MS,
      );
      this.pending.set(id, { resolve, reject, timer });
      // a 64-bit integer (a daily's seed, read whole: dailyday.js) goes as one: msgpack's
      // uint 64 (with this option a number past 2^32 goes as a float: a request with a
      // seed has none)
      const big = Object.values(message).some((value) => typeof value === "bigint");
      ws.send(encode(message, big ? { useBigInt64: true } : undefined));
      this.frames.sent += 1;
    });
  }

  /**
   * Give up on `ws` as if it had closed (`why`), and connect again: a link that has
   * stalled never closes by itself. What it still delivers is not read.
   * @param {WebSocket} ws
   * @param {string} why
   */
  drop(ws, why) {
    if (this.ws !== ws) return;
    ws.onmessage = null;
    this.closed(ws, { code: 4000, reason: why });
    try {
      ws.close(4000, why);
    } catch {
      // (closing a socket that is still connecting: it goes all the same)
    }
  }

  /**
   * @param {WebSocket} ws
   * @param {{ code: number, reason: string }} closed
   */
  closed(ws, closed) {
    if (this.ws !== ws) return;
    this.ws = null;
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new ServerError("connection_lost", LINK_NOTES[2]));
    }
    this.pending.clear();
    if (closed.code === SIGNED_OUT || this.signedOut) {
      this.signedOut = true;
      this.onState("signed_out");
      return;
    }
    const delay = backoff(this.attempt);
    this.attempt += 1;
    const why = closed.reason ? `: ${closed.reason}` : "";
    const at = performance.now() + delay;
    // the seconds to the next try, counted down as they go (they stood still)
    const say = () => {
      const left = Math.max(at - performance.now(), 0) / 1000;
      this.onState("retrying", `connection lost${why}; retrying in ${left.toFixed(1)} s`);
    };
    say();
    clearInterval(this.saying);
    this.saying = setInterval(say, 100);
    this.retry = setTimeout(() => this.open(), delay);
  }
}
