// @ts-check
// Par in words: the day's par, and whether the solver proved its book line the shortest
// (A* finished) or it is only the shortest it found in its budget. Unit tests:
// client_web/tests/par.test.js.

/**
 * "par 30 (proved shortest)", "par 109 (shortest found)", or "par 109" from a server
 * that does not say.
 * @param {number} par
 * @param {boolean | null | undefined} shortest
 * @returns {string}
 */
export function parWords(par, shortest) {
  if (typeof shortest !== "boolean") return `par ${par}`;
  return `par ${par} (${shortest ? "proved shortest" : "shortest found"})`;
}
