// The page's websocket (docs/web.md "Protocol"): connects with the link's token,
// resumes with the seq and tag of the view it holds and the newest token it was sent,
// and reconnects with a growing delay when the connection drops. A close the server
// means (game over, link refused, no such game) is final.

export const GAME_OVER = 4000;
export const LINK_REFUSED = 4401;
export const NO_GAME = 4404;
export const GOING_AWAY = 1001;
const FINAL = new Set([GAME_OVER, LINK_REFUSED, NO_GAME]);
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

/**
 * A table connection. `handlers`: `frame(message)` for every frame, `state(name, code,
 * reason)` when the connection's state changes ("connecting", "open", "closed" with the
 * close code and reason, "waiting" with the delay in ms before the next try).
 */
export class TableSocket {
  constructor(game, token, handlers) {
    this.game = game;
    this.token = token;
    this.handlers = handlers;
    this.held = null; // {seq, tag} of the view the page shows
    this.socket = null;
    this.tries = 0;
    this.final = false;
  }

  /** Note the view the page holds and the newest token: a reconnect resumes from them. */
  hold(seq, tag, token) {
    this.held = { seq, tag };
    if (token) this.token = token;
  }

  renew(token) {
    if (token) this.token = token;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = new URLSearchParams({ t: this.token });
    if (this.held) {
      query.set("seq", String(this.held.seq));
      query.set("tag", this.held.tag);
    }
    this.handlers.state("connecting");
    const socket = new WebSocket(`${scheme}//${location.host}/ws/${this.game}?${query}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.tries = 0;
      this.handlers.state("open");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not a frame of ours: the next view repairs anything missed
      }
      this.handlers.frame(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (FINAL.has(event.code)) {
        this.final = true;
        this.handlers.state("closed", event.code, event.reason);
        return;
      }
      const delay = BACKOFF_MS[Math.min(this.tries, BACKOFF_MS.length - 1)];
      this.tries += 1;
      this.handlers.state("waiting", event.code, event.reason, delay);
      setTimeout(() => this.connect(), delay);
    });
  }

  /** Send `message` (an object) if connected; false if not (the page shows it). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
