// @ts-check
// A pile dragged onto another, with a mouse or a pen (on a touch screen a drag scrolls the
// page, and a tap on each pile plays): a copy of its top card follows the pointer once it
// has moved 8 px, and where it is let go over another pile, the two piles are what the
// game plays (game.js reads them as two clicks). Only the pointer's part: no rules.

import { pileAt } from "./board.js";

/**
 * A pile being dragged: where from (its label, the pointer's start), and the copy of its
 * top card that follows the pointer once it has moved.
 * @typedef {{ from: string, x: number, y: number, ghost: HTMLElement | null, pile: HTMLElement }} Drag
 */

/** how far the pointer moves before a press is a drag, in pixels */
const SLOP = 8;

export class Dragging {
  constructor() {
    /** @type {Drag | null} */
    this.drag = null;
  }

  /**
   * A press on a pile (none on a game over, nor with a mouse's other buttons).
   * @param {PointerEvent} event
   * @param {boolean} over
   */
  down(event, over) {
    const at = pileAt(event.target);
    if (!at || over || event.button > 0) return;
    this.drag = { from: at.label, x: event.clientX, y: event.clientY, ghost: null, pile: at.pile };
  }

  // while a pile is dragged, a copy of its top card follows the pointer
  /** @param {PointerEvent} event */
  move(event) {
    const drag = this.drag;
    if (!drag || (!drag.ghost && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < SLOP)) return;
    if (!drag.ghost) {
      const top = drag.pile.querySelector(".card:last-of-type");
      if (!top) return;
      const ghost = /** @type {HTMLElement} */ (top.cloneNode(true));
      ghost.classList.add("ghost");
      ghost.style.setProperty("--cw", getComputedStyle(drag.pile).getPropertyValue("width"));
      ghost.style.setProperty("--ch", `${top.getBoundingClientRect().height}px`);
      document.body.append(ghost);
      drag.ghost = ghost;
    }
    drag.ghost.style.left = `${event.clientX - 10}px`;
    drag.ghost.style.top = `${event.clientY - 10}px`;
  }

  /**
   * The pointer let go: the pile dragged and the pile it was let go over, where it was
   * dragged (not pressed in place) onto another pile; else null.
   * @param {PointerEvent} event
   * @returns {{ from: string, to: string } | null}
   */
  up(event) {
    const drag = this.drag;
    this.cancel();
    if (!drag || Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < SLOP) return null;
    const at = pileAt(document.elementFromPoint(event.clientX, event.clientY));
    if (!at || at.label === drag.from) return null;
    return { from: drag.from, to: at.label };
  }

  cancel() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
  }
}
