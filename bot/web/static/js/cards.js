// Cards as elements: a face from its code (the frames' "TH", "AS'", "B2"), its name in
// words for screen readers, and a back. No rules here: which card may be played, and
// how a hand is sorted, come from the server's view.

const SUITS = {
  C: { symbol: "♣", noun: "clubs", red: false },
  D: { symbol: "♦", noun: "diamonds", red: true },
  H: { symbol: "♥", noun: "hearts", red: true },
  S: { symbol: "♠", noun: "spades", red: false },
};
const RANKS = {
  6: ["6", "6"], 7: ["7", "7"], 8: ["8", "8"], 9: ["9", "9"], T: ["10", "10"],
  J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"], A: ["A", "ace"],
};

/** A suit by its letter: `{symbol, noun, red}`, or undefined. */
export function suit(letter) {
  return SUITS[letter];
}

/** The parts of a card code: `{rank, suit, ben, second}` (rank and suit null for a Ben). */
export function parse(code) {
  const second = code.endsWith("'");
  const bare = second ? code.slice(0, -1) : code;
  if (bare[0] === "B") return { rank: null, suit: null, ben: Number(bare.slice(1)), second };
  return { rank: bare[0], suit: bare[1], ben: 0, second };
}

/** A card in words, as a screen reader says it: "10 of hearts", "ace of spades, second copy", "Ben 2". */
export function cardName(code) {
  const c = parse(code);
  if (c.ben) return `Ben ${c.ben}`;
  const words = `${RANKS[c.rank][1]} of ${SUITS[c.suit].noun}`;
  return c.second ? `${words}, second copy` : words;
}

/** A card in short text, as the labels write it: "10♥", "🃏2". */
export function cardText(code) {
  const c = parse(code);
  if (c.ben) return `🃏${c.ben}`;
  return RANKS[c.rank][0] + SUITS[c.suit].symbol + (c.second ? "'" : "");
}

/**
 * A card's face. `tag` is "button" for a card that can be played (the caller sets its
 * action), else a plain element read as an image.
 */
export function cardElement(code, tag = "div") {
  const c = parse(code);
  const el = document.createElement(tag);
  el.className = "card";
  el.dataset.card = code;
  if (tag === "button") el.type = "button";
  else el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  let rank;
  let pip;
  if (c.ben) {
    el.classList.add("ben");
    rank = "B";
    pip = "★";
  } else {
    const s = SUITS[c.suit];
    if (s.red) el.classList.add("red");
    rank = RANKS[c.rank][0];
    pip = s.symbol;
  }
  if (c.second) el.classList.add("second");
  const corner = (extra) => {
    const idx = document.createElement("span");
    idx.className = `idx ${extra}`;
    idx.setAttribute("aria-hidden", "true");
    const r = document.createElement("b");
    r.textContent = c.ben ? `${rank}${c.ben}` : rank;
    const p = document.createElement("i");
    p.textContent = pip;
    idx.append(r, p);
    return idx;
  };
  const middle = document.createElement("span");
  middle.className = "pip";
  middle.setAttribute("aria-hidden", "true");
  middle.textContent = pip;
  el.append(corner("tl"), middle, corner("br"));
  return el;
}

/** A card's back: a face-down card (no code: nothing about it is known). */
export function backElement(label = "a face-down card") {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  return el;
}

/**
 * `text` (a label or a sentence from the server) as nodes, its red suit symbols in red:
 * "Name ♥ hearts" reads the same, with the heart coloured.
 */
export function suitedText(text) {
  const frag = document.createDocumentFragment();
  for (const part of String(text).split(/([♥♦♣♠])/u)) {
    if (!part) continue;
    if (part === "♥" || part === "♦") {
      const span = document.createElement("span");
      span.className = "red-suit";
      span.textContent = part;
      frag.append(span);
    } else if (part === "♣" || part === "♠") {
      const span = document.createElement("span");
      span.className = "black-suit";
      span.textContent = part;
      frag.append(span);
    } else {
      frag.append(part);
    }
  }
  return frag;
}
