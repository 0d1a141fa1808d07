// The line an event's table shows under its status (docs/events.md, "On the web"):
// "Friday night · Round 2 of 4 · 12:34 left", its clock ticking from the server's
// `ends_at` (the hello's `event`), and the event's standings a link away (in a new tab:
// the table stays open). Inside Discord a button asks the Activity (activity.js) to show
// them in its panel over the table.

import { timeLeft } from "./standings.js";

let ticker = null;

/** Show `event` (the hello's, or null: no event's table) above the table. */
export function showRoundLine(event, { inDiscord = false } = {}) {
  clearInterval(ticker);
  let line = document.querySelector("#round-line");
  if (!event) {
    if (line) line.hidden = true;
    return;
  }
  if (!line) {
    line = document.createElement("p");
    line.id = "round-line";
    document.querySelector("#status").before(line);
  }
  const offset = event.now - Date.now() / 1000;
  const words = document.createElement("span");
  words.textContent = `${event.name} · Round ${event.round} of ${event.rounds}`;
  const clock = document.createElement("span");
  clock.className = "clock";
  clock.setAttribute("role", "timer");
  clock.setAttribute("aria-label", "Time left in the round");
  line.replaceChildren(words);
  if (event.ends_at !== null) {
    const tick = () => { clock.textContent = timeLeft(event.ends_at, offset); };
    tick();
    ticker = setInterval(tick, 1000);
    line.append(" · ", clock);
  }
  if (inDiscord) {
    // The Activity shows them over the table (activity.js): a navigation would leave
    // the SDK's connection to Discord behind.
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Standings";
    button.addEventListener("click", () => {
      document.dispatchEvent(new CustomEvent("tuque:standings", { detail: event }));
    });
    line.append(" · ", button);
  } else {
    const link = document.createElement("a");
    // The path and token only: the server's own origin is the page's.
    const url = new URL(event.standings, location.href);
    link.href = url.pathname + url.search;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    link.textContent = "Standings";
    line.append(" · ", link);
  }
  line.hidden = false;
}
