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

/**
 * A won game's moves against par, in words ("" for a game not won): under par is a line
 * shorter than the one the solver found (never so under a par proved shortest).
 * @param {number} par
 * @param {number} moves
 * @param {boolean} won
 * @returns {string}
 */
export function againstPar(par, moves, won) {
  if (!won) return "";
  const apart = Math.abs(par - moves);
  const counted = `${apart} move${apart === 1 ? "" : "s"}`;
  if (moves < par) return `You beat par by ${counted}: a shorter line than the solver found.`;
  if (moves === par) return "You matched par.";
  return `${counted} over par.`;
}
