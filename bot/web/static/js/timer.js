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
    this.tick = 0;
  }

  /** Show the timer for `view`'s seat to act, if a member plays it and a clock came. */
  set(view, settings, clock) {
    const seat = view.turn;
    const member = seat !== null && !view.computer[seat] && view.result === null;
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
    const plate = document.querySelector(`[data-seat-plate="${seat}"]`);
    if (plate) plate.append(this.root);
    this.root.hidden = false;
    this.draw();
    clearInterval(this.tick);
    this.tick = setInterval(() => this.draw(), 1000);
  }

  stop() {
    clearInterval(this.tick);
    this.deadline = null;
    this.root.hidden = true;
  }

  draw() {
    const d = this.deadline;
    if (!d) return;
    const elapsed = Math.max(0, (Date.now() - d.start) / 1000);
    const left = Math.max(0, d.away - elapsed);
    this.ring.style.strokeDashoffset = String(100 - (100 * left) / d.away);
    this.root.classList.toggle("late", elapsed >= d.remind);
    const minutes = Math.floor(left / 60);
    const seconds = Math.floor(left % 60);
    this.text.textContent = `${minutes}:${String(seconds).padStart(2, "0")}`;
    this.root.setAttribute("aria-label", `Turn timer: ${minutes} min ${seconds} s before away`);
  }
}
