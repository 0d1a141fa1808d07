// Where each seat sits on the screen: the viewer at the bottom, the others round the
// table in playing order (the next to play on the viewer's left, as at a real table).
// Positions are percentages of the table's box; a spectator sees seat 0 at the bottom.

/** The seat's place relative to the viewer: 0 the viewer (bottom), 1 next to play... */
export function relative(seat, bottom, players) {
  return (seat - bottom + players) % players;
}

/** The angle of a seat round the table, in radians, screen coordinates (y down). */
export function angle(seat, bottom, players) {
  return Math.PI / 2 + (relative(seat, bottom, players) * 2 * Math.PI) / players;
}

/**
 * A seat's plate centre, in percent of the table box: an ellipse a little inside the
 * edge, the sides pulled in so that a plate's width fits at 360 px.
 */
export function platePlace(seat, bottom, players) {
  const a = angle(seat, bottom, players);
  const x = 50 + 39 * Math.cos(a);
  const y = 50 + 42 * Math.sin(a);
  return { x: Math.min(86, Math.max(14, x)), y: Math.min(91, Math.max(8, y)) };
}

/** A seat's tableau centre (Tuque): between its plate and the middle of the table. */
export function tableauPlace(seat, bottom, players) {
  const a = angle(seat, bottom, players);
  return { x: 50 + 22 * Math.cos(a), y: 50 + 23 * Math.sin(a) };
}

/**
 * A seat's card in the trick: offset from the trick's centre toward its player. Two
 * players' cards lie side by side (the tableaus above and below leave little height).
 */
export function trickOffset(seat, bottom, players) {
  if (players === 2) {
    const mine = relative(seat, bottom, players) === 0;
    return mine ? { x: 0.62, y: 0.22 } : { x: -0.62, y: -0.22 };
  }
  // Five or six cards need a wider ring to stay apart.
  const spread = players >= 5 ? 1.35 : 1;
  const a = angle(seat, bottom, players);
  return { x: spread * Math.cos(a), y: spread * Math.sin(a) };
}
