-- Resigning at a table of several members (docs/rulings.md R26): the member's seat is
-- played by a computer for the rest of the game and the others play on. The seat keeps
-- its member, for their loss in results and ratings; resigned_at (seconds since the
-- epoch) marks when they left. NULL: the member still plays (or a computer's seat).
ALTER TABLE seats ADD COLUMN resigned_at REAL CHECK (resigned_at IS NULL OR kind = 'human');
