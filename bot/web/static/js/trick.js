// The trick in the middle: each card travels from its player's seat (or from the
// viewer's own hand, where it was clicked) to its place, and a completed trick is held
// a moment, then sweeps to its winner. Animations run between places the views hold;
// a missed view is repaired by the next, never guessed. With prefers-reduced-motion,
// cards appear and go without moving.

import { cardElement, cardName } from "./cards.js";
import { trickOffset } from "./layout.js";

const reduced = matchMedia("(prefers-reduced-motion: reduce)");
const TRAVEL_MS = 320;
const SWEEP_MS = 420;
const HOLD_MS = 1100;

/**
 * The rectangle of each card the viewer clicked, by code: where that card's travel
 * starts when the viewer's own seat plays it (never another seat's card of the same
 * name: a twin, or the same card in a later hand).
 */
export const launched = new Map();

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function plateOf(seat) {
  return document.querySelector(`[data-seat-plate="${seat}"]`);
}

/** Move `el` in from `from` (a DOMRect) to where it lies now. */
function travelFrom(el, from) {
  if (reduced.matches || !from) return;
  const to = centre(el.getBoundingClientRect());
  const start = centre(from);
  const dx = start.x - to.x;
  const dy = start.y - to.y;
  el.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.7)` }, { transform: "none" }],
    { duration: TRAVEL_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
}

/**
 * Draws tricks as views come: `show(view, completed, names)` with the trick the view
 * holds and, if one was completed since the view before, that trick (held, then swept).
 */
export class TrickArea {
  constructor(root) {
    this.root = root;
    this.busy = false;
    // The completed tricks waiting to be shown and swept, oldest first: two can finish
    // while one is held (a spectator's, or a seat sitting out), and each is shown.
    this.done = [];
    this.current = null; // [view, names] to draw once nothing is held
    this.held = null; // {hand, release}: the hand of the trick held now, and its early end
  }

  show(view, completed, names) {
    if (completed) this.done.push({ trick: completed, view });
    this.current = { view, names };
    // A new hand dealt while the last one's trick is held: its cards are back in the
    // pack, some maybe in the viewer's new hand, so the held trick sweeps at once.
    if (this.held && this.held.hand !== view.hand_no) this.held.release();
    if (!this.busy) this.run();
  }

  async run() {
    this.busy = true;
    while (this.done.length) {
      const { trick, view } = this.done.shift();
      // A trick of a hand already over (a newer hand is dealt) is back in the pack, as
      // a held one is: not shown. The hand's last trick comes with the new deal's view.
      if (view.hand_no !== this.current.view.hand_no) continue;
      this.draw(trick.plays, view, this.current.names, trick.winner);
      // Held shorter while others wait behind it, so the table never falls behind.
      const hold = (reduced.matches ? HOLD_MS / 2 : HOLD_MS) / (this.done.length ? 3 : 1);
      await new Promise((release) => {
        this.held = { hand: view.hand_no, release };
        setTimeout(release, hold);
      });
      this.held = null;
      await this.sweep(trick.winner);
    }
    const { view, names } = this.current;
    this.draw(view.trick.plays, view, names, null);
    this.busy = false;
  }

  /** Make the trick's cards `plays` ([[seat, code]...]), travelling in the new ones. */
  draw(plays, view, names, winner) {
    const bottom = view.seat ?? 0;
    const players = view.sides.length;
    const keep = new Set(plays.map(([seat, code]) => `${seat}:${code}`));
    for (const el of [...this.root.children]) {
      if (!keep.has(`${el.dataset.seat}:${el.dataset.card}`)) el.remove();
    }
    plays.forEach(([seat, code], order) => {
      let el = this.root.querySelector(`.card[data-seat="${seat}"][data-card="${CSS.escape(code)}"]`);
      const fresh = !el;
      if (fresh) {
        el = cardElement(code);
        el.dataset.seat = String(seat);
        el.setAttribute("aria-label", `${names[seat]}: ${cardName(code)}`);
        const off = trickOffset(seat, bottom, players);
        el.style.setProperty("--dx", off.x.toFixed(3));
        el.style.setProperty("--dy", off.y.toFixed(3));
        // A slight tilt, the same for a card wherever it is drawn again.
        const tilt = ((code.charCodeAt(0) * 7 + code.charCodeAt(1) * 3) % 9) - 4;
        el.style.setProperty("--tilt", `${tilt}deg`);
        this.root.append(el);
      }
      el.style.zIndex = String(order + 1);
      el.classList.toggle("winner", winner === seat);
      if (fresh) {
        const mine = seat === view.seat && launched.get(code);
        if (mine) launched.clear(); // one act at a time: older clicks are done with
        travelFrom(el, mine || plateOf(seat)?.getBoundingClientRect());
      }
    });
    this.root.classList.toggle("complete", winner !== null && winner !== undefined);
  }

  /** Sweep every card of the trick to the winner's seat, then clear it. */
  async sweep(winner) {
    const plate = plateOf(winner);
    const cards = [...this.root.children];
    if (!reduced.matches && plate) {
      const target = centre(plate.getBoundingClientRect());
      const moves = cards.map((el) => {
        const at = centre(el.getBoundingClientRect());
        return el.animate(
          [
            { transform: "none", opacity: 1 },
            { transform: `translate(${target.x - at.x}px, ${target.y - at.y}px) scale(0.35)`, opacity: 0 },
          ],
          { duration: SWEEP_MS, easing: "ease-in", fill: "forwards" },
        ).finished;
      });
      await Promise.allSettled(moves);
    }
    for (const el of cards) el.remove();
    this.root.classList.remove("complete");
  }
}
