// @ts-check
// A daily deal's difficulty as the browser shows it: the `difficulty` map of the `daily`
// and `daily_status` replies (docs/protocol.md#difficulty), in words. Pure.

/** the grades a server sends, easiest first */
export const GRADES = ["easy", "medium", "hard", "expert"];

/**
 * @param {unknown} value
 * @returns {number}
 */
function counted(value) {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0;
}

/**
 * The grade of a reply's `difficulty`, or null (absent, null: not graded yet, or a grade
 * this client does not know).
 * @param {any} difficulty
 * @returns {string | null}
 */
export function gradeOf(difficulty) {
  if (!difficulty || typeof difficulty !== "object") return null;
  return GRADES.includes(difficulty.grade) ? difficulty.grade : null;
}

/**
 * The difficulty in a sentence, with what it was measured from; "" when not graded. The
 * grade is the game's own (its thresholds are), and where a try was lost the sentence
 * says how far the tries got (`home_pct`), which is what tells apart the deals of a game
 * whose tries mostly lose; a server before it sent none, and then nothing is said of it.
 * Where cards come off in pairs (`unit` "pairs": Nestor, Doubles and Quits) they are
 * "paired off", nothing going home there.
 * @param {any} difficulty
 * @param {string} [unit] the game's (the games list's `unit`)
 * @returns {string}
 */
export function difficultyText(difficulty, unit = "cards") {
  const grade = gradeOf(difficulty);
  if (grade === null) return "";
  const tries = counted(difficulty.tries);
  const wins = counted(difficulty.board_wins);
  const searches = counted(difficulty.searches);
  const home = difficulty.home_pct;
  const known = Number.isInteger(home) && home >= 0 && home <= 100;
  const got = unit === "pairs" ? "paired off" : "home";
  const howFar = known && wins < tries ? `, ${home}% of the cards ${got} on average` : "";
  return (
    `Difficulty: ${grade} for this game (the hint engine, seeing only the board, won ${wins} ` +
    `of ${tries} ${tries === 1 ? "try" : "tries"}${howFar}; ${counted(difficulty.line_wins)} of ` +
    `${searches} short solver searches found a win).`
  );
}
