// @ts-check
// What the page's address says: a room's code (/r/CODE), a challenge's id (/c/ID), a
// group's link (/g/ID?k=KEY), and the fields of its hash (#daily=gate, #replay=ID).

// a challenge's id, as challenge.js's CHALLENGE_ID (and the server's) has it: known here
// before challenge.js is loaded, to route /c/ID
const CHALLENGE_ID = /^[a-z2-7]{16}$/;

/** a room's code, upper case, or null */
export function roomCode() {
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]{1,16})$/);
  return match ? match[1].toUpperCase() : null;
}

/** a challenge's id, or null */
export function challengeId() {
  const match = location.pathname.match(/^\/c\/([^/]+)$/);
  return match && CHALLENGE_ID.test(match[1]) ? match[1] : null;
}

/** a group's link, /g/ID?k=KEY: its id and key, or null */
export function groupLink() {
  const match = location.pathname.match(/^\/g\/([a-z0-9]{10})$/);
  const key = new URLSearchParams(location.search).get("k");
  return match && key ? { group: match[1], key } : null;
}

/**
 * A field of the address's hash (`#daily=gate&x`: "gate" for daily, "" for x), or null.
 * @param {string} name
 * @returns {string | null}
 */
export function hashField(name) {
  const hash = location.hash.replace(/^#/, "");
  for (const part of hash.split("&")) {
    const [key, value] = part.split("=");
    if (key === name) return value === undefined ? "" : decodeURIComponent(value);
  }
  return null;
}
