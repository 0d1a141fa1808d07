// The turn timer ring (docs/rulings.md R9): the time left before an idle member is
// marked away and a computer plays for them, from the server's settings (hello's
// `timer`) and the turn's start (a view's `clock`). The server's clock is the one
// that counts: the page measures from the server's `now`, not its own.

export class TurnTimer {
  constructor(root) {
    this.root = root;
    this.ring = root.querySelector(".left");
    this.text = root.querySelector(".time");
    this.deadline = null; // {start (local ms), remind (s), away (s)}
    this.mine = false; // the viewer's own turn: "Hurry" shows by their prompt
    this.tick = 0;
  }

  /** Show the timer for `view`'s seat to act, if a member plays it and a clock came. */
  set(view, settings, clock) {
    const seat = view.turn;
    // A move played for the viewer waits on no one: no clock runs for it.
    const member = seat !== null && !view.computer[seat] && view.result === null && !view.played_for_you;
    if (!member || !settings || !clock) {
      this.stop();
      return;
    }
    // The turn's start on this page's clock: the server's start, shifted by the
    // difference between the clocks when the frame came.
    const skew = clock.now * 1000 - Date.now();
    this.deadline = {
      start: clock.turn_started * 1000 - skew,
      remind: settings.reminder_seconds,
      away: settings.away_seconds,
    };
    this.mine = seat === view.seat;
    const plate = document.querySelector(`[data-seat-plate="${seat}"]`);
    if (plate) {
      plate.append(this.root);
      // Beside the plate on the felt's side: a plate on the right has it on its left.
      this.root.classList.toggle("flip", parseFloat(plate.style.getPropertyValue("--x")) > 60);
    }
    this.root.hidden = false;
    this.draw();
    clearInterval(this.tick);
    this.tick = setInterval(() => this.draw(), 1000);
  }

  stop() {
    clearInterval(this.tick);
    this.deadline = null;
    this.root.hidden = true;
    this.hurry(false);
  }

  /** Say "Hurry" beside "Your turn" once the reminder's time has come (or no more). */
  hurry(on) {
    const prompt = document.querySelector("#prompt.yours");
    const shown = document.querySelector("#prompt .hurry");
    if (!on || !prompt) {
      shown?.remove();
      return;
    }
    if (shown) return;
    const word = document.createElement("strong");
    word.className = "hurry";
    word.textContent = "Hurry!";
    prompt.querySelector("strong")?.after(word, " ");
  }

  draw() {
    const d = this.deadline;
    if (!d) return;
    const elapsed = Math.max(0, (Date.now() - d.start) / 1000);
    const left = Math.max(0, d.away - elapsed);
    this.ring.style.strokeDashoffset = String(100 - (100 * left) / d.away);
    const late = elapsed >= d.remind;
    this.root.classList.toggle("late", late);
    this.hurry(late && this.mine);
    const minutes = Math.floor(left / 60);
    const seconds = Math.floor(left % 60);
    this.text.textContent = `${minutes}:${String(seconds).padStart(2, "0")}`;
    const words = `${minutes} min ${seconds} s before away`;
    this.root.setAttribute("aria-label", `Turn timer: ${late ? `hurry, ${words}` : words}`);
  }
}
