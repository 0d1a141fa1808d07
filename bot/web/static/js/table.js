// Drawing one view into the page: seats, tableaus, the up-card and bidding, the
// viewer's hand and choices, the hand's end, the score pad and the game's result. The
// view is whole: each draw replaces what the last one drew (the trick aside, which
// animates: trick.js). Everything shown comes from the view; its words are the
// server's (view.words), so the page decides nothing.

import { backElement, cardElement, cardName, suit, suitedText } from "./cards.js";
import { platePlace, tableauPlace } from "./layout.js";

const $ = (selector) => document.querySelector(selector);
const CARD_KINDS = new Set(["play", "discard", "give"]);
const BIDDING = new Set([
  "round 1 bidding", "round 2 bidding", "dealer's discard", "going alone",
  "naming trump unseen", "loner's card request", "giving the loner a card",
  "calling a partner", "auction",
]);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.append(suitedText(text));
  return node;
}

/** Each side's name, as every text names it ("Ann & Cleo", "Ann, Cleo and Eve"). */
export function sideNames(view) {
  return view.words.sides;
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A seat's plate: avatar, name, marks, tricks won, cards held. */
function plate(view, seat) {
  const players = view.sides.length;
  const bottom = view.seat ?? 0;
  const place = platePlace(seat, bottom, players);
  const li = el("li", "seat");
  li.dataset.seatPlate = String(seat);
  li.style.setProperty("--x", `${place.x}%`);
  li.style.setProperty("--y", `${place.y}%`);
  li.style.setProperty("--hue", String((seat * 360) / players + 200));
  if (view.turn === seat) li.dataset.turn = "1";
  if (seat === view.seat) li.classList.add("me");
  const out = view.out.includes(seat);
  if (out) li.classList.add("out");
  const name = view.names[seat] ?? `Seat ${seat + 1}`;
  const avatar = el("span", "avatar", name.replace(/^CPU\s*/u, "").slice(0, 2).trim() || "?");
  avatar.setAttribute("aria-hidden", "true");
  const who = el("span", "name", name);
  if (seat === view.seat) who.append(el("span", "sr-only", ", you"));
  const marks = el("span", "marks");
  // A mark's short text is for the eye; a screen reader reads its words (an aria-label
  // on a span is no name: ARIA forbids it on an element without a role).
  const mark = (cls, text, words) => {
    const m = el("span", `mark ${cls}`, text);
    m.setAttribute("aria-hidden", "true");
    marks.append(m, el("span", "sr-only", `, ${words}`));
  };
  if (view.dealer === seat && view.phase !== "game over") mark("dealer", "D", "dealer");
  if (view.maker === seat && view.trump) {
    mark("maker", `${suit(view.trump).symbol} maker`, `made ${suit(view.trump).noun} trump`);
  }
  if (view.alone === seat) mark("alone", "alone", "going alone");
  if (view.lone_defender === seat) mark("alone", "defends alone", "defending alone");
  if (out) mark("out", "sits out", "sitting out this hand");
  if (view.away.includes(seat)) mark("away", "away", "away: a computer plays for them");
  const tricks = view.tricks_won[seat] ?? 0;
  const facts = el("span", "facts");
  if (view.phase === "play" || view.phase === "hand over") {
    facts.append(el("span", "tricks", plural(tricks, "trick", "tricks")));
  }
  const held = view.hand_sizes[seat] ?? 0;
  if (seat !== view.seat && held) {
    const cards = el("span", "held");
    const backs = el("span", "backs");
    backs.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(held, 8); i++) backs.append(el("i", "mini"));
    if (held > 8) backs.append(el("b", "", `${held}`));
    cards.append(backs, el("span", "sr-only", `, ${plural(held, "card", "cards")} in hand`));
    facts.append(cards);
  }
  li.append(avatar, who, marks, facts);
  if (view.turn === seat) {
    const turn = el("span", "sr-only", "to act now");
    li.append(turn);
  }
  return li;
}

function drawSeats(view) {
  const seats = $("#seats");
  const timer = $("#timer");
  // The timer ring lives in the plate of the seat to act; keep it while plates change.
  $("#table").append(timer);
  const players = view.sides.length;
  const bottom = view.seat ?? 0;
  const order = Array.from({ length: players }, (_, i) => (bottom + i) % players);
  seats.replaceChildren(...order.map((seat) => plate(view, seat)));
  seats.dataset.players = String(players);
}

/** Legal actions by the card they act on, for the hand's and tableau's cards. */
function cardActions(view) {
  const byCard = new Map();
  for (const action of view.legal) {
    if (action.card && CARD_KINDS.has(action.kind)) byCard.set(action.card, action);
  }
  return byCard;
}

function actionCard(code, action, where) {
  const card = cardElement(code, "button");
  card.dataset.action = String(action.id);
  card.dataset.kind = action.kind;
  card.classList.add("legal");
  card.setAttribute("aria-label", `${action.label.replace(/\s.*$/u, "")} ${cardName(code)}${where}`);
  return card;
}

function drawTableaus(view, byCard, used) {
  const root = $("#tableaus");
  root.replaceChildren();
  const has = view.tableaus.some((piles) => piles.length);
  root.hidden = !has;
  if (!has) return;
  const players = view.sides.length;
  const bottom = view.seat ?? 0;
  view.tableaus.forEach((piles, seat) => {
    const place = tableauPlace(seat, bottom, players);
    const group = el("div", "tableau");
    group.dataset.owner = String(seat);
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", seat === view.seat ? "Your tableau" : `${view.names[seat]}'s tableau`);
    group.style.setProperty("--x", `${place.x}%`);
    group.style.setProperty("--y", `${place.y}%`);
    for (const pile of piles) {
      const stack = el("div", "pile");
      if (pile.face_down) stack.append(backElement(pile.up ? "a face-down card beneath" : "a face-down card"));
      if (pile.up) {
        const action = seat === view.seat ? byCard.get(pile.up) : undefined;
        let card;
        if (action) {
          card = actionCard(pile.up, action, ", from your tableau");
          used.add(action.id);
        } else {
          card = cardElement(pile.up);
        }
        if (pile.face_down) card.classList.add("on-back");
        stack.append(card);
      }
      if (!pile.up && !pile.face_down) stack.classList.add("empty");
      group.append(stack);
    }
    root.append(group);
  });
}

function drawCentre(view) {
  const up = $("#upcard");
  const showUp = view.up_card && BIDDING.has(view.phase);
  up.hidden = !showUp;
  up.replaceChildren();
  if (showUp) {
    const card = cardElement(view.up_card);
    delete card.dataset.card; // the up-card is no trick card and no action
    const caption = view.up_card_turned_down ? "turned down" : "up-card";
    if (view.up_card_turned_down) card.classList.add("turned-down");
    // The card's name says what its caption shows, which a screen reader skips.
    const state = view.up_card_turned_down ? ", turned down" : "";
    card.setAttribute("aria-label", `Up-card${state}: ${cardName(view.up_card)}`);
    const words = el("span", "caption", caption);
    words.setAttribute("aria-hidden", "true");
    up.append(card, words);
  }
  const log = $("#bidlog");
  const bids = view.words.bids.slice(-4);
  log.hidden = !(bids.length && BIDDING.has(view.phase));
  log.replaceChildren(...bids.map((line) => el("li", "", line)));
}

function drawHand(view, byCard, used) {
  const hand = $("#hand");
  hand.replaceChildren();
  if (view.seat === null) {
    hand.append(el("p", "watching", "You are watching: players' hands are hidden."));
    return;
  }
  if (view.blind) {
    hand.append(el("p", "watching", "You decide before looking at your hand."));
    return;
  }
  const groups = view.hand_groups;
  const total = groups.reduce((n, g) => n + g.cards.length, 0);
  hand.style.setProperty("--n", String(total));
  let i = 0;
  for (const group of groups) {
    const box = el("div", group.trump ? "group trump" : "group");
    const word = group.suit ? `${group.trump ? "Trump, " : ""}${suit(group.suit).noun}` : "Bens";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", word);
    for (const code of group.cards) {
      const action = byCard.get(code);
      let card;
      if (action && !used.has(action.id)) {
        card = actionCard(code, action, "");
        used.add(action.id);
      } else {
        card = cardElement(code);
      }
      card.style.setProperty("--i", String(i));
      i += 1;
      box.append(card);
    }
    hand.append(box);
  }
  hand.classList.toggle("choosing", view.legal.some((a) => CARD_KINDS.has(a.kind)));
}

const SUIT = /\s*([♣♦♥♠])/u;

/** An action's button: its label, or only its suit inside a row that names the rest. */
function actionButton(action, text) {
  const button = el("button", `action kind-${action.kind}`);
  button.append(suitedText(text));
  button.type = "button";
  button.dataset.action = String(action.id);
  const words = action.card ? action.label.replace(/\S+$/u, cardName(action.card)) : action.label;
  if (action.card || text !== action.label) button.setAttribute("aria-label", words);
  return button;
}

/**
 * The legal actions not on a card, as buttons. Actions alike but for their suit (an
 * Auction's bids, naming trump) share a row: its words once, then one button a suit,
 * so twenty bids fit a phone's screen above the hand.
 */
function drawActions(view, used) {
  const root = $("#actions");
  const rows = new Map(); // the label without its suit -> the actions
  for (const action of view.legal.filter((a) => !used.has(a.id))) {
    const key = action.card ? action.label : action.label.replace(SUIT, "");
    rows.set(key, [...(rows.get(key) ?? []), action]);
  }
  const parts = [];
  for (const [words, actions] of rows) {
    if (actions.length < 2) {
      parts.push(actionButton(actions[0], actions[0].label));
      continue;
    }
    const row = el("div", "suit-row");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", words);
    row.append(el("span", "row-words", words));
    for (const action of actions) row.append(actionButton(action, action.label.match(SUIT)[1]));
    parts.push(row);
  }
  root.replaceChildren(...parts);
  root.hidden = !parts.length;
}

function drawPrompt(view) {
  const prompt = $("#prompt");
  prompt.replaceChildren();
  if (view.legal.length) {
    prompt.append(el("strong", "", "Your turn: "), suitedText(view.words.prompt));
    prompt.classList.add("yours");
  } else {
    prompt.append(suitedText(view.played_for_you ?? view.words.status));
    prompt.classList.remove("yours");
  }
  const facts = [view.words.trump, view.words.call, view.words.tricks].filter(Boolean);
  if (facts.length) {
    prompt.append(el("span", "facts", facts.join(" · ")));
  }
}

function drawSummary(view) {
  const box = $("#summary");
  const result = view.hand_just_over;
  // Beside the felt, never on it: the next hand is dealt at once, and its up-card,
  // plates and tableaus must show. Closed by its button until the next hand's end.
  box.hidden = !result || view.result !== null || box.dataset.closed === String(result.hand_no);
  if (box.hidden) return;
  const sides = sideNames(view);
  $("#summary-title").textContent = `Hand ${result.hand_no}:`;
  const verdict = result.trump === null ? "Thrown in"
    : result.march ? "March!"
    : result.euchred ? "Euchred!"
    : result.maker === null ? "" : "Made";
  const v = $("#summary-verdict");
  v.textContent = verdict;
  v.className = result.euchred ? "euchred" : result.march ? "march" : "";
  const facts = $("#summary-facts");
  facts.replaceChildren();
  const fact = (term, value) => {
    facts.append(el("dt", "", term), el("dd", "", value));
  };
  if (result.trump) fact("Trump", `${suit(result.trump).symbol} ${suit(result.trump).noun}`);
  if (result.maker !== null) {
    const alone = result.alone !== null ? ` (${view.names[result.alone]} alone)` : "";
    const partner = result.partner !== null ? ` with ${view.names[result.partner]}` : "";
    fact("Makers", `${view.names[result.maker]}${partner}${alone}`);
  }
  if (result.trump) {
    // By side where partners share their tricks, else by seat: "Ann & Cleo: 3".
    const teams = sides.length < view.sides.length;
    const tricks = teams
      ? sides.map((name, side) => `${name}: ${result.tricks.reduce((n, t, seat) => n + (view.sides[seat] === side ? t : 0), 0)}`)
      : result.tricks.map((n, seat) => `${view.names[seat]}: ${n}`);
    fact("Tricks", tricks.join(" · "));
  }
  const points = (p) => `${p > 0 ? "+" : ""}${p}`;
  fact("Points", result.points.map((p, side) => `${sides[side]}: ${points(p)}`).join(" · "));
  // The points won, in the heading's line: all a phone shows of the summary.
  const scored = result.points.flatMap((p, side) => (p ? [`${sides[side]} ${points(p)}`] : []));
  $("#summary-points").textContent = `· ${scored.join(" · ") || "no points"}`;
  $("#summary-words").replaceChildren(suitedText(view.words.hand_end ?? ""));
}

/**
 * The last trick `trick` ({plays, winner}) as cards, in the order played, each over
 * its player's name, the winner's ringed: beside the felt, so that it hides nothing
 * the viewer must follow.
 */
export function drawReview(view, trick) {
  $("#review-title").textContent = `Last trick: ${view.names[trick.winner]} won it`;
  const cards = trick.plays.map(([seat, code]) => {
    const li = el("li", seat === trick.winner ? "winner" : "");
    const card = cardElement(code);
    delete card.dataset.card; // no trick on the table: a picture of one
    li.append(card, el("span", "who", view.names[seat]));
    return li;
  });
  $("#review-cards").replaceChildren(...cards);
}

function drawPad(view) {
  const sides = sideNames(view);
  const head = el("tr");
  head.append(el("th", "", "Hand"), el("th", "", "Trump"), el("th", "", "Made by"));
  for (const name of sides) head.append(el("th", "side", name));
  for (const th of head.children) th.scope = "col";
  $("#pad thead").replaceChildren(head);
  $("#pad").dataset.sides = String(sides.length); // four or more: a narrower pad
  const rows = view.history.map((r) => {
    const tr = el("tr");
    if (r.euchred) tr.classList.add("euchred");
    if (r.march) tr.classList.add("march");
    const hand = el("th", "", String(r.hand_no));
    hand.scope = "row";
    const maker = r.maker === null ? "—"
      : `${view.names[r.maker]}${r.alone !== null ? " alone" : ""}${r.euchred ? " · euchred" : r.march ? " · march" : ""}`;
    tr.append(hand, el("td", "", r.trump ? suit(r.trump).symbol : "—"), el("td", "", maker));
    r.scores.forEach((score, side) => {
      const p = r.points[side];
      const cell = el("td", "side");
      cell.append(el("b", "", String(score)));
      if (p) cell.append(el("small", "", ` ${p > 0 ? "+" : ""}${p}`));
      tr.append(cell);
    });
    return tr;
  });
  $("#pad tbody").replaceChildren(...rows);
  $("#target").replaceChildren(suitedText(view.words.score));
}

/**
 * The result at the game's end: the winner (or why it ended) and the final scores, a
 * "New game" link when the server offers one (`home`).
 */
function drawResult(view, home) {
  const box = $("#result");
  const result = view.result;
  if (!result) {
    box.hidden = true;
    document.body.dataset.over = "";
    return;
  }
  const sides = sideNames(view);
  $("#result-words").replaceChildren(suitedText(view.ended ?? view.words.status));
  // The result's scores and places are per seat: one row per side, from its first seat.
  const rows = sides.map((name, side) => {
    const seat = view.sides.indexOf(side);
    const tr = el("tr");
    if (side === result.winner) tr.classList.add("won");
    const head = el("th", "", name);
    head.scope = "row";
    tr.append(head, el("td", "", String(result.scores[seat])), el("td", "", String(result.places[seat])));
    return tr;
  });
  $("#result-scores tbody").replaceChildren(...rows);
  const link = $("#home");
  if (typeof home === "string") {
    link.href = home;
    link.hidden = false;
  }
  if (document.body.dataset.over !== "1") box.hidden = false;
  document.body.dataset.over = "1";
}

/** Draw `view` (the trick aside); `home` is the hello frame's New game address, if any. */
export function drawView(view, home) {
  // The hand's number never wraps apart: on a phone the game's name may take two lines.
  $("#title").replaceChildren(view.words.title, " ", el("span", "hand-no", `· hand ${view.hand_no}`));
  // "Score" said, not shown (an aria-label on a paragraph names nothing).
  $("#score").replaceChildren(el("span", "sr-only", "Score: "), suitedText(view.words.score));
  drawSeats(view);
  const byCard = cardActions(view);
  const used = new Set();
  drawTableaus(view, byCard, used);
  drawCentre(view);
  drawHand(view, byCard, used);
  drawActions(view, used);
  drawPrompt(view);
  drawSummary(view);
  drawPad(view);
  drawResult(view, home);
}
