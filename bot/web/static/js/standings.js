// An event's live standings (docs/events.md, "On the web"): the view the standings page
// (event.js) and the Activity (activity.js) show. It polls the server's
// /api/event/<id> every `poll` seconds, naming the standings it holds (ETag), and the
// round's clock ticks here from the server's `ends_at`. Every name is set as text,
// never as markup.

/** The remaining time `seconds` as `12:34` or `1:02:03`. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** A round's clock line, `12:34 left`, from its end and the server's clock offset. */
export function timeLeft(endsAt, offset) {
  const left = endsAt - (Date.now() / 1000 + offset);
  return left > 0 ? `${clockText(left)} left` : "time's up: the hands in play finish";
}

const FINAL = new Set(["finished", "cancelled"]);
const RETRY_MAX_MS = 30000;

function element(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

/** The standings of one event, drawn in `root` and kept current until `stop()`. */
export class StandingsView {
  /**
   * @param root the element to draw in (its content is replaced).
   * @param event the event's id; `token` its standings token (renewed by each answer).
   * @param heading the title's level: 1 on its own page, 2 inside the Activity.
   * @param onToken called with each fresh token (the page keeps it in its address).
   * @param onDraw called with each new standings' data, once drawn.
   */
  constructor(root, { event, token, heading = 1, onToken = () => {}, onDraw = () => {} }) {
    this.event = event;
    this.token = token;
    this.onToken = onToken;
    this.onDraw = onDraw;
    this.etag = null;
    this.data = null;
    this.offset = 0;
    this.timer = null;
    this.ticker = null;
    this.failures = 0;
    this.stopped = false;
    this.root = root;
    this.title = element(`h${heading}`, { id: "standings-title", textContent: "Standings" });
    this.facts = element("p", { className: "facts" });
    this.headline = element("span", { className: "headline" });
    this.clock = element("span", { className: "clock", hidden: true });
    this.clock.setAttribute("role", "timer");
    this.clock.setAttribute("aria-label", "Time left in the round");
    this.progress = element("span", { className: "progress" });
    this.said = element("p", { className: "sr-only" });
    this.said.setAttribute("role", "status");
    this.error = element("p", { className: "error", hidden: true });
    this.error.setAttribute("role", "alert");
    this.scoreName = element("th", { scope: "col", className: "num", textContent: "Points" });
    this.body = element("tbody");
    const table = element(
      "table",
      {},
      element("caption", { className: "sr-only", textContent: "Standings: place, name, score and rounds played" }),
      element(
        "thead",
        {},
        element(
          "tr",
          {},
          element("th", { scope: "col", className: "num", textContent: "Place" }),
          element("th", { scope: "col", textContent: "Name" }),
          this.scoreName,
          element("th", { scope: "col", className: "num", textContent: "Played" }),
        ),
      ),
      this.body,
    );
    root.classList.add("standings");
    root.setAttribute("aria-labelledby", "standings-title");
    root.dataset.state = "loading";
    root.replaceChildren(
      element("header", {}, this.title, this.facts, element("p", { className: "round" }, this.headline, this.clock, this.progress)),
      this.said,
      this.error,
      element("div", { className: "scroll" }, table),
    );
    this.headline.textContent = "Loading the standings…";
  }

  /** Start polling (and the clock). */
  start() {
    this.stopped = false;
    this.ticker = setInterval(() => this.tick(), 1000);
    this.fetchNow();
  }

  /** Stop polling and the clock (the view stays as drawn). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.ticker);
  }

  async fetchNow() {
    clearTimeout(this.timer);
    let next = (this.data?.poll ?? 3) * 1000;
    try {
      const headers = this.etag ? { "If-None-Match": this.etag } : {};
      const url = `/api/event/${this.event}?t=${encodeURIComponent(this.token)}`;
      const response = await fetch(url, { headers, cache: "no-store" });
      if (response.status === 304) {
        this.failures = 0;
      } else {
        const answer = await response.json();
        if (!response.ok) {
          if (response.status === 403 || response.status === 404) {
            this.fail(answer.reason ?? "These standings cannot open.", true);
            return;
          }
          throw new Error(answer.reason ?? `HTTP ${response.status}`);
        }
        this.failures = 0;
        this.etag = response.headers.get("ETag");
        this.token = answer.token;
        this.onToken(answer.token);
        this.offset = answer.now - Date.now() / 1000;
        this.draw(answer);
      }
      this.error.hidden = true;
    } catch {
      // The server restarts or the network dropped: try again, less and less often.
      this.failures += 1;
      next = Math.min(RETRY_MAX_MS, next * 2 ** this.failures);
      this.fail("The standings' server did not answer: trying again…", false);
    }
    if (this.stopped || FINAL.has(this.data?.status)) return;
    this.timer = setTimeout(() => this.fetchNow(), next);
  }

  fail(reason, final) {
    this.error.textContent = reason;
    this.error.hidden = false;
    this.root.dataset.state = final ? "refused" : "retrying";
    if (final) this.stop();
  }

  /** Say in the live region what changed since the standings drawn before. */
  announce(before, now) {
    if (!before) return;
    let words = "";
    if (now.status !== before.status && FINAL.has(now.status)) words = `${now.headline}.`;
    else if (now.round !== before.round) words = `${now.headline} has started.`;
    else if (now.tables.finished > before.tables.finished) {
      words = `${now.tables.finished} of ${now.tables.of} tables finished: the standings are updated.`;
    }
    if (words) this.said.textContent = words;
  }

  draw(data) {
    this.announce(this.data, data);
    this.data = data;
    const root = this.root;
    root.dataset.state = "live";
    root.dataset.status = data.status;
    root.dataset.round = String(data.round);
    root.dataset.finished = String(data.tables.finished);
    this.title.textContent = data.name;
    document.title = `${data.name}: standings`;
    this.facts.textContent = `${data.game} · ${data.format} · rounds of ${data.length}`;
    this.headline.textContent = data.headline;
    this.progress.textContent = data.tables.of
      ? `${data.tables.finished} of ${data.tables.of} tables finished`
      : "";
    this.progress.hidden = data.status !== "running";
    this.scoreName.textContent = data.score_name;
    this.body.replaceChildren(...data.lines.map((line) => this.line(line)));
    this.tick();
    this.onDraw(data);
  }

  line(line) {
    const notes = [line.now, line.away ? "away: a computer plays" : "", line.left ? "left" : ""]
      .filter(Boolean)
      .join(" · ");
    const name = element("td", {}, element("span", { className: "name", textContent: line.name }));
    if (notes) name.append(element("span", { className: "now", textContent: notes }));
    const row = element(
      "tr",
      {},
      element("td", { className: "num", textContent: line.place === null ? "–" : String(line.place) }),
      name,
      element("td", { className: "num score", textContent: line.score }),
      element("td", { className: "num", textContent: String(line.played) }),
    );
    if (line.place === 1) row.className = "first";
    return row;
  }

  tick() {
    const endsAt = this.data?.ends_at;
    this.clock.hidden = endsAt === null || endsAt === undefined;
    if (!this.clock.hidden) this.clock.textContent = timeLeft(endsAt, this.offset);
  }
}
