// The web table page: one view at a time from the server (docs/web.md), drawn whole;
// the viewer's clicks and keys sent as the server's own action ids. The page knows no
// rules: it offers the view's `legal` actions and nothing else.
//
// Never log a frame or put a card in the address: the address carries the link's token
// only (renewed with every view, so a reload reconnects).

import { cardName } from "./cards.js";
import { offerRematch } from "./rematch.js";
import { showRoundLine } from "./roundline.js";
import { TableSocket, GAME_OVER, LINK_REFUSED, NO_GAME, GOING_AWAY } from "./socket.js";
import { drawReview, drawView } from "./table.js";
import { TrickArea, launched } from "./trick.js";
import { TurnTimer } from "./timer.js";

const $ = (selector) => document.querySelector(selector);
const body = document.body;
// A table's own address (/table/<game>?t=<token>) opens that table; any other (the
// Activity's entry, / or /activity) is the page inside Discord, which signs in first and
// then opens the table it is given here, in this same document (a navigation would
// leave the SDK's connection to Discord behind).
const tableAddress = location.pathname.match(/^\/table\/(\d+)$/);

const state = {
  hello: null,
  frame: null, // the newest view frame
  pending: null, // the seq of an act sent and not yet answered
  hintAsked: null, // the seq of a hint asked and not yet answered
  hintsOff: false,
  hinted: null, // {seq, action, text}
  log: [],
};

const trick = new TrickArea($("#trick"));
const timer = new TurnTimer($("#timer"));
let socket = null;
let inDiscord = false;

// --- what happened, in words ------------------------------------------------------------

/** The trick completed between `before` and `view`, if any (with its winner). */
function completedTrick(view, before) {
  if (!before) return null;
  if (view.hand_no === before.hand_no && view.tricks.length > before.tricks.length) {
    return view.tricks.at(-1);
  }
  const last = view.hand_just_over?.last_trick;
  if (view.hand_no !== before.hand_no && last && view.hand_just_over.hand_no === before.hand_no) {
    return before.tricks.length < (view.hand_just_over.tricks.reduce((a, b) => a + b, 0)) ? last : null;
  }
  return null;
}

/**
 * Lines saying what changed from `before` to `view`: bids, each card played and who
 * played it, tricks won (every trick completed in between, with its last card).
 */
function happenings(view, before, done) {
  const lines = [];
  const names = view.names;
  const sameHand = before && before.hand_no === view.hand_no;
  const bidsBefore = sameHand ? before.words.bids.length : 0;
  lines.push(...view.words.bids.slice(bidsBefore));
  const seen = new Set();
  if (sameHand) {
    for (const [seat, code] of before.trick.plays) seen.add(`${seat}:${code}`);
  }
  const played = (plays) => {
    for (const [seat, code] of plays) {
      if (!seen.has(`${seat}:${code}`)) lines.push(`${names[seat]} played ${cardName(code)}`);
    }
  };
  // Views the page was never sent (a newer one replaced them) may hide a whole trick: the
  // view's own completed tricks say it; a new hand's view keeps only the last one's.
  const tricks = sameHand ? view.tricks.slice(before.tricks.length) : done ? [done] : [];
  for (const t of tricks) {
    played(t.plays);
    lines.push(`${names[t.winner]} won the trick`);
  }
  played(view.trick.plays);
  if (view.hand_just_over && !(before && before.hand_just_over) && view.words.hand_end) {
    lines.push(view.words.hand_end);
  }
  return lines;
}

function say(view, lines) {
  for (const line of lines) {
    state.log.push(line);
    const li = document.createElement("li");
    li.textContent = line;
    $("#log").append(li);
  }
  const log = $("#log");
  while (log.children.length > 40) log.firstChild.remove();
  // The live region says every line; the eye reads the newest and the status (the
  // rest is in "What happened"), so the line above the table keeps its height.
  const status = $("#status");
  const latest = lines.at(-1);
  const now = view.words.status;
  status.replaceChildren();
  if (lines.length > 1) {
    const earlier = document.createElement("span");
    earlier.className = "sr-only";
    earlier.textContent = `${lines.slice(0, -1).join(". ")}. `;
    status.append(earlier);
  }
  status.append(latest ? `${latest}. ${now}` : now);
}

// --- frames -------------------------------------------------------------------------------

function onFrame(message) {
  switch (message.type) {
    case "hello":
      state.hello = message;
      body.dataset.seat = message.seat === null ? "" : String(message.seat);
      $("#hint").hidden = message.seat === null;
      offerRematch(message.rematch, message.home);
      showRoundLine(message.event ?? null, { inDiscord });
      if (message.v !== 1) notice("This page is out of date: reload it.");
      break;
    case "view":
      showView(message);
      break;
    case "resumed":
      body.dataset.state = "live";
      socket.renew(message.token);
      keepToken(message.token);
      if (message.clock && state.frame) timer.set(state.frame.view, state.hello?.timer, message.clock);
      if (state.frame) say(state.frame.view, []);
      break;
    case "refused":
      onRefused(message);
      break;
    case "hint":
      onHint(message);
      break;
    default:
      break; // a frame of a newer server: the next view is enough
  }
}

function showView(message) {
  const before = state.frame?.view ?? null;
  // A move played for the viewer (their auto-play choice) is theirs to watch, not to
  // click: the page offers nothing while it is on its way.
  const view = message.view.played_for_you ? { ...message.view, legal: [] } : message.view;
  const frame = { ...message, view };
  state.frame = frame;
  state.pending = null;
  // The view answers the act: its actions are drawn afresh, enabled.
  body.classList.remove("acting");
  if (state.hinted && state.hinted.seq !== frame.seq) hideHint();
  if (state.hintAsked !== null && state.hintAsked !== frame.seq) state.hintAsked = null;
  body.dataset.state = "live";
  body.dataset.seq = String(frame.seq);
  body.dataset.phase = view.phase;
  socket.hold(frame.seq, frame.tag, frame.token);
  keepToken(frame.token);
  const done = completedTrick(view, before);
  drawView(view, state.hello?.home);
  trick.show(view, done, view.names);
  timer.set(view, state.hello?.timer, frame.clock);
  drawTools(view);
  say(view, happenings(view, before, done));
  markHint();
  keepPlace();
}

/** Put the newest token in the address (never a card): a reload opens the same seat. */
function keepToken(token) {
  // Inside Discord the address is Discord's (frame_id, instance_id): the SDK needs it,
  // and a reload signs in again.
  if (!token || inDiscord) return;
  history.replaceState(null, "", `${location.pathname}?t=${encodeURIComponent(token)}`);
}

function onRefused(message) {
  if (message.seq !== undefined && message.seq === state.pending) {
    state.pending = null;
    setActing(false);
    keepPlace();
  }
  if (message.seq !== undefined && message.seq === state.hintAsked) {
    state.hintAsked = null;
    if (message.kind === "no_hints") state.hintsOff = true;
    if (state.frame) drawTools(state.frame.view);
  }
  if (message.kind === "link") body.dataset.state = "refused";
  notice(message.reason);
}

let noticeTimer = 0;
function notice(text) {
  const box = $("#notice");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  if (body.dataset.state === "live") {
    noticeTimer = setTimeout(() => { box.hidden = true; }, 7000);
  }
}

function onSocketState(name, code, reason, delay) {
  if (name === "connecting") {
    if (body.dataset.state !== "refused") body.dataset.state = "connecting";
    return;
  }
  if (name === "open") return; // live once a view or "resumed" comes
  if (name === "waiting") {
    body.dataset.state = "connecting";
    const seconds = Math.ceil(delay / 1000);
    const why = code === GOING_AWAY ? "The bot is restarting" : "The connection dropped";
    $("#status").textContent = `${why}: reconnecting in ${seconds} s…`;
    setActing(false);
    return;
  }
  // closed for good
  setActing(false);
  timer.stop();
  if (code === LINK_REFUSED) {
    body.dataset.state = "refused";
    const fresh = inDiscord ? "Close the Activity and open it again." : "Open a fresh link from your hand message.";
    $("#status").textContent = `This link cannot open the table: ${reason || "refused"}. ${fresh}`;
  } else if (code === NO_GAME) {
    body.dataset.state = "closed";
    $("#status").textContent = reason || "This game is not running here.";
  } else if (code === GAME_OVER) {
    body.dataset.state = "closed";
    const view = state.frame?.view;
    $("#status").textContent = view ? `Game over. ${view.ended ?? view.words.status}` : "Game over.";
  }
  for (const el of document.querySelectorAll("[data-action]")) el.disabled = true;
  $("#hint").disabled = true;
}

// --- acting -------------------------------------------------------------------------------

/** Disable (or enable again) every action while an act is in flight. */
function setActing(on) {
  for (const el of document.querySelectorAll("[data-action]")) el.disabled = on;
  body.classList.toggle("acting", on);
}

function act(target) {
  const frame = state.frame;
  if (!frame || state.pending !== null || target.disabled) return;
  const id = Number(target.dataset.action);
  if (!socket.send({ type: "act", seq: frame.seq, action: id })) {
    notice("Not connected: your move was not sent.");
    return;
  }
  if (target.dataset.card && target.closest("#hand, #tableaus")) {
    launched.set(target.dataset.card, target.getBoundingClientRect());
  }
  state.pending = frame.seq;
  setActing(true);
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-action]");
  if (target) act(target);
});

// Arrow keys move between the choices of a row (hand, tableau, buttons); Enter or Space
// is the button's own click.
document.addEventListener("keydown", (event) => {
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
  const current = event.target.closest?.("[data-action]");
  if (!current) return;
  const row = current.closest("#hand, #tableaus, #actions");
  const all = [...row.querySelectorAll("[data-action]:not([disabled])")];
  const at = all.indexOf(current);
  if (at < 0 || !all.length) return;
  const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
  let next = (at + step + all.length) % all.length;
  if (event.key === "Home") next = 0;
  if (event.key === "End") next = all.length - 1;
  all[next].focus();
  event.preventDefault();
});

// --- keeping the keyboard's place -----------------------------------------------------------
// Each view is drawn whole: the card or button that had the focus is gone after every
// move, and the focus would fall to the page, losing a keyboard or screen-reader
// player's place. While the focus is in the viewer's own part of the table (hand,
// tableau, choices), each draw puts it back there: on the same card if it is still to be
// played, else on the first choice of the same row, else of any row, else on the hand's
// section while others play. Elsewhere (the tools, the pad) it is left alone.

const OWN = "#mine, #tableaus";
const ROWS = "#hand, #tableaus, #actions";
let place = null; // {card, row} of the focus in the viewer's own part, or null

document.addEventListener("focusin", (event) => {
  const target = event.target;
  const own = target instanceof Element && target.closest(OWN);
  place = own ? { card: target.dataset.card ?? null, row: target.closest(ROWS)?.id ?? null } : null;
});

function keepPlace() {
  const result = $("#result");
  const active = document.activeElement;
  if (!place) return;
  if (!result.hidden) {
    // The game's end shows over the table: the focus goes to it.
    result.focus();
    return;
  }
  const lost = !active || active === body || !active.isConnected;
  if (!lost && active !== $("#mine")) return;
  const choices = [...document.querySelectorAll(`:is(${ROWS}) [data-action]:not([disabled])`)];
  const next = choices.find((c) => place.card && c.dataset.card === place.card)
    ?? choices.find((c) => c.closest(ROWS)?.id === place.row)
    ?? choices[0];
  if (next) next.focus();
  else if (lost) $("#mine").focus();
}

// --- tools: hint, last trick, pad, theme ------------------------------------------------------

function lastTrick(view) {
  return view.tricks.at(-1) ?? view.hand_just_over?.last_trick ?? null;
}

function drawTools(view) {
  const hint = $("#hint");
  const mine = view.seat !== null && view.legal.length > 0;
  hint.disabled = !mine || state.hintsOff || state.hintAsked !== null;
  hint.title = state.hintsOff ? "Hints are off in this game" : "What would the computer do?";
  const last = $("#last-trick");
  last.disabled = !lastTrick(view);
  if (last.disabled) closeReview();
  else if (last.getAttribute("aria-expanded") === "true") openReview();
}

$("#hint").addEventListener("click", () => {
  const frame = state.frame;
  if (!frame || state.hintAsked !== null) return;
  if (socket.send({ type: "hint", seq: frame.seq })) {
    state.hintAsked = frame.seq;
    $("#hint").disabled = true;
    showHintText("Thinking…");
  }
});

function onHint(message) {
  state.hintAsked = null;
  if (!state.frame || message.seq !== state.frame.seq) return;
  state.hinted = { seq: message.seq, action: message.action, text: message.text };
  showHintText(message.text);
  markHint();
  drawTools(state.frame.view);
}

function showHintText(text) {
  const box = $("#hint-text");
  box.textContent = text;
  box.hidden = false;
}

function hideHint() {
  state.hinted = null;
  $("#hint-text").hidden = true;
}

function markHint() {
  for (const el of document.querySelectorAll(".hinted")) el.classList.remove("hinted");
  if (!state.hinted || !state.frame || state.hinted.seq !== state.frame.seq) return;
  document.querySelector(`[data-action="${state.hinted.action}"]`)?.classList.add("hinted");
}

function openReview() {
  const view = state.frame?.view;
  const t = view && lastTrick(view);
  if (!t) return;
  drawReview(view, t);
  $("#review").hidden = false;
  $("#last-trick").setAttribute("aria-expanded", "true");
}

function closeReview() {
  $("#review").hidden = true;
  $("#last-trick").setAttribute("aria-expanded", "false");
}

$("#last-trick").addEventListener("click", () => {
  if ($("#review").hidden) openReview();
  else closeReview();
});
$("#review").addEventListener("click", closeReview);
$("#summary-close").addEventListener("click", () => {
  const box = $("#summary");
  box.dataset.closed = String(state.frame?.view.hand_just_over?.hand_no ?? "");
  box.hidden = true;
  $("#mine").focus();
});

$("#pad-toggle").addEventListener("click", () => {
  const open = body.classList.toggle("pad-open");
  $("#pad-toggle").setAttribute("aria-expanded", String(open));
});

$("#result-close").addEventListener("click", () => {
  $("#result").hidden = true;
  $("#mine").focus(); // back to the table, not to the page's top
});

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  const dark = theme === "dark";
  const button = $("#theme");
  button.setAttribute("aria-pressed", String(dark));
  button.setAttribute("aria-label", dark ? "Dark theme on: switch to light" : "Light theme on: switch to dark");
}

$("#theme").addEventListener("click", () => {
  const theme = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
  try { localStorage.setItem("tuque-theme", theme); } catch { /* storage off: this visit only */ }
  applyTheme(theme);
});
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", (event) => {
  let chosen = null;
  try { chosen = localStorage.getItem("tuque-theme"); } catch { /* storage off */ }
  if (!chosen) applyTheme(event.matches ? "dark" : "light");
});
applyTheme(document.documentElement.dataset.theme);

// The felt's height, which sizes the cards on it (table.css, "the felt"): a short window
// (a laptop, Discord's Activity panel) shrinks them so that nothing on it overlaps.
new ResizeObserver(([entry]) => {
  $("#table").style.setProperty("--felt-h", `${entry.contentRect.height}px`);
}).observe($("#table"));

/** Open game `game`'s table with a link's token: the socket, then every view on it. */
function openTable(game, token) {
  socket = new TableSocket(String(game), token, { frame: onFrame, state: onSocketState });
  socket.connect();
}

if (tableAddress) {
  openTable(tableAddress[1], new URLSearchParams(location.search).get("t") ?? "");
} else {
  inDiscord = true;
  // Loaded here only: the SDK is 150 kB a table's own address never needs.
  import("./activity.js").then(({ startActivity }) => startActivity(openTable));
}
