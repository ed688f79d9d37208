// @ts-check
// Requests a screen makes one after another, in the order made: one made while the one
// before it is unanswered waits for its answer. A move typed while the last was on its
// way had been dropped (the move box cleared, nothing sent, nothing said), and every
// move of the line after it was refused.

/** the most that may wait at once (a key held down is no line of moves) */
export const MOST_WAITING = 8;

export class Turns {
  constructor() {
    /** @type {Promise<unknown>} */
    this.last = Promise.resolve();
    this.waiting = 0;
  }

  /**
   * Run `fn` once every turn taken before it is done (done or failed): true; false, and
   * `fn` never run, where the most that may wait are waiting.
   * @param {() => Promise<unknown>} fn
   * @returns {Promise<boolean>}
   */
  take(fn) {
    if (this.waiting >= MOST_WAITING) return Promise.resolve(false);
    this.waiting += 1;
    const turn = this.last
      .then(fn)
      .then(
        () => true,
        () => true,
      )
      .finally(() => {
        this.waiting -= 1;
      });
    this.last = turn;
    return turn;
  }
}
