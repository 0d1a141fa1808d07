// The page inside Discord (docs/web.md, "Inside Discord: the Activity"): Discord's
// Embedded App SDK asks the member for a sign-in code, the bot's server exchanges it
// (the client secret never reaches this page) and answers with the games of the
// Activity's channel; the member picks one, or starts one against the computers or with
// the people in the Activity, and the table opens in this document. An event running in
// the channel (docs/events.md, "On the web") opens on the member's table of its round,
// else on its live standings, shown in this document too (standings.js).
//
// Discord opens the Activity with `frame_id` and `instance_id` in the address. Without
// a `frame_id` (a plain browser: the convention of Discord's SDK playground) the SDK's
// own mock stands in for Discord: its `authorize` answers the codes given as
// `mock_code` (one per sign-in, in order) for the instance `instance_id`. The server
// still exchanges every code at Discord and checks the instance, so the mock opens
// nothing a member could not open from inside Discord.

import { DiscordSDK, DiscordSDKMock } from "../vendor/discord-embedded-app-sdk-2.5.0.js";
import { StandingsView } from "./standings.js";

const $ = (selector) => document.querySelector(selector);
const body = document.body;

// Scope `identify` only: the server asks /users/@me who the member is, nothing more.
const SCOPE = ["identify"];

// Discord's client answers the SDK's handshake at once; a page opened with a `frame_id`
// outside Discord is answered never, and says so after this long rather than spin.
const READY_MS = 15000;

/** A refusal to show: `kind` is the server's `error` (or the page's own word). */
class Refused extends Error {
  constructor(kind, reason) {
    super(reason);
    this.kind = kind;
  }
}

/**
 * Sign in and open a table of the Activity's channel: `openTable(game, token)` opens it
 * in this page (main.js). Every failure ends in a clear error on the page, nothing else.
 */
export async function startActivity(openTable) {
  const query = new URLSearchParams(location.search);
  const panel = new Picker(openTable);
  panel.working("Signing in with Discord…");
  let sdk;
  try {
    const embedded = query.has("frame_id");
    const mockCodes = query.getAll("mock_code");
    if (!embedded && mockCodes.length === 0) {
      throw new Refused(
        "outside",
        "This is the table inside Discord: open it from a game's “Open the table” button in Discord.",
      );
    }
    const config = await askServer("/api/activity/config");
    panel.offer(config.variants ?? []);
    sdk = embedded ? new DiscordSDK(config.client_id) : mockSdk(config.client_id, query, mockCodes);
    await Promise.race([sdk.ready(), unanswered(READY_MS)]);
  } catch (error) {
    panel.failed(error, false);
    return;
  }
  panel.signIn = () => signIn(sdk, panel);
  await panel.signIn();
}

/** Rejects after `ms` milliseconds: Discord never answered the SDK's handshake. */
function unanswered(ms) {
  return new Promise((_, reject) =>
    setTimeout(
      () =>
        reject(
          new Refused(
            "no_discord",
            "Discord did not answer this page: it opens only inside Discord. Close the Activity and open it again.",
          ),
        ),
      ms,
    ),
  );
}

/** The SDK's mock, answering `codes` in turn to `authorize` (the last one again after). */
function mockSdk(clientId, query, codes) {
  const sdk = new DiscordSDKMock(clientId, query.get("guild_id"), query.get("channel_id"), null);
  sdk.instanceId = query.get("instance_id") ?? "";
  let next = 0;
  // Set directly, not through the mock's `_updateCommandMocks`: its wrappers print every
  // command's arguments to the console, the access token among them.
  sdk.commands = {
    ...sdk.commands,
    authorize: async () => ({ code: codes[Math.min(next++, codes.length - 1)] }),
    authenticate: async ({ access_token }) => ({ access_token, scopes: SCOPE }),
  };
  return sdk;
}

async function signIn(sdk, panel) {
  panel.working("Signing in with Discord…");
  try {
    let code;
    try {
      ({ code } = await sdk.commands.authorize({
        client_id: sdk.clientId,
        response_type: "code",
        state: "",
        prompt: "none",
        scope: SCOPE,
      }));
    } catch {
      throw new Refused("authorize", "Discord did not sign you in to Tuque (it was declined or failed): try again.");
    }
    const answer = await askServer("/api/activity/token", { code, instance_id: sdk.instanceId });
    try {
      await sdk.commands.authenticate({ access_token: answer.access_token });
    } catch {
      throw new Refused("authenticate", "Discord did not accept the sign-in: try again.");
    }
    panel.signedIn = { access_token: answer.access_token, instance_id: sdk.instanceId };
    panel.choose(answer.tables, answer.events ?? []);
  } catch (error) {
    panel.failed(error, true);
  }
}

/** GET `path`, or POST `payload` to it as JSON: the answer, or a `Refused` saying why. */
async function askServer(path, payload) {
  let response;
  try {
    response = await fetch(path, payload === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
  } catch {
    throw new Refused("network", "The table's server did not answer: check your connection and try again.");
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch {
    // not JSON (a proxy's error page): said below
  }
  if (!response.ok || answer === null || typeof answer !== "object") {
    const reason = typeof answer?.reason === "string"
      ? answer.reason
      : `The table's server refused (HTTP ${response.status}): try again in a moment.`;
    throw new Refused(typeof answer?.error === "string" ? answer.error : "server", reason);
  }
  return answer;
}

/** The panel over the table: signing in, the channel's games to pick or one to start,
 *  or why not. */
class Picker {
  constructor(openTable) {
    this.openTable = openTable;
    this.signIn = null;
    // The sign-in's answer a start sends back: the server checks it at Discord again.
    this.signedIn = null;
    this.box = $("#activity");
    this.box.hidden = false;
    $("#activity-retry").addEventListener("click", () => this.signIn?.());
    $("#activity-refresh").addEventListener("click", () => this.signIn?.());
    $("#activity-tables").addEventListener("click", (event) => {
      const standings = event.target.closest("button[data-standings]");
      if (standings) this.standings(JSON.parse(standings.dataset.standings));
      const button = event.target.closest("button[data-link]");
      if (button) this.open(button.dataset.link);
    });
    // The round's line on an event's table asks for its standings (roundline.js).
    document.addEventListener("tuque:standings", (event) => {
      const { event: id, name, standings } = event.detail;
      this.standings({ event: id, name, link: standings, table: null }, true);
    });
    this.view = null;
    $("#activity-start").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-start]");
      if (button) this.start(button.dataset.start);
    });
  }

  /** The games a member may start, by title; the first (Tuque) chosen. */
  offer(variants) {
    const select = $("#activity-variant");
    select.replaceChildren(...variants.map(({ name, title }) => new Option(title, name)));
  }

  /** Start a game of the chosen variant in the Activity's channel, against the
   *  computers or with the people here (`with`), and open the member's seat. A refusal
   *  shows its reason under the list, which stays. */
  async start(mode) {
    const buttons = [...document.querySelectorAll("#activity-start button")];
    buttons.forEach((button) => { button.disabled = true; });
    body.dataset.activity = "starting";
    delete body.dataset.activityError;
    $("#activity-error").hidden = true;
    this.say("Dealing…");
    try {
      const answer = await askServer("/api/activity/start", {
        ...this.signedIn,
        variant: $("#activity-variant").value,
        with: mode,
      });
      this.open(answer.link);
    } catch (error) {
      if (error instanceof Refused && error.kind === "already_here") {
        // The game the refusal names started since the list was drawn (the member's
        // other click, or another page of theirs): list it, to open from there.
        await this.relist();
      }
      body.dataset.activity = "choosing";
      body.dataset.activityError = error instanceof Refused ? error.kind : "page";
      this.say("The game did not start.");
      const box = $("#activity-error");
      box.textContent = error instanceof Refused ? error.message : "Something went wrong on this page: try again.";
      box.hidden = false;
    } finally {
      buttons.forEach((button) => { button.disabled = false; });
    }
  }

  working(words) {
    body.dataset.activity = "signing-in";
    delete body.dataset.activityError;
    this.say(words);
    $("#activity-error").hidden = true;
    $("#activity-retry").hidden = true;
    $("#activity-games").hidden = true;
  }

  say(words) {
    $("#activity-status").textContent = words;
    $("#status").textContent = words;
  }

  failed(error, canRetry) {
    const kind = error instanceof Refused ? error.kind : "page";
    const reason = error instanceof Refused ? error.message : "Something went wrong on this page: close the Activity and open it again.";
    body.dataset.activity = "error";
    body.dataset.activityError = kind;
    this.say("Tuque could not sign you in.");
    const box = $("#activity-error");
    box.textContent = reason;
    box.hidden = false;
    // A bot without Activities, or a page outside Discord, will not change on a retry.
    $("#activity-retry").hidden = !canRetry || kind === "off" || kind === "outside";
  }

  /** Open the member's table of an event's round in play, else the event's standings;
   *  else the member's own game at once if there is exactly one; else list them all. */
  choose(tables, events = []) {
    const seated = events.find((event) => event.table);
    if (seated) {
      this.open(seated.table);
      return;
    }
    const mine = tables.filter((table) => table.seat !== null);
    if (!events.length && mine.length === 1) {
      this.open(mine[0].link);
      return;
    }
    this.list(tables, events);
    if (events.length) this.standings(events[0]);
  }

  /** Show an event's live standings over the page (`overTable`: over a table playing
   *  on beneath), with the member's table of the round once they have one, and a way
   *  back. */
  standings(event, overTable = false) {
    this.view?.stop();
    const box = document.querySelector("#standings") ?? document.createElement("section");
    box.id = "standings";
    box.className = "over";
    document.body.append(box);
    const token = new URL(event.link, location.href).searchParams.get("t") ?? "";
    let round = null;
    const play = document.createElement("button");
    play.type = "button";
    play.className = "primary";
    play.hidden = true;
    const back = document.createElement("button");
    back.type = "button";
    back.textContent = overTable ? "Back to the table" : "This channel's games";
    this.view = new StandingsView(box, {
      event: event.event,
      token,
      heading: 2,
      onDraw: (data) => {
        if (data.round === round) return;
        round = data.round;
        // A new round may seat the member: ask for the channel's events again.
        if (!overTable) this.seatIn(event.event, play);
      },
    });
    play.addEventListener("click", () => {
      this.closeStandings();
      this.open(play.dataset.link);
    });
    back.addEventListener("click", () => {
      this.closeStandings();
      if (!overTable) {
        this.box.hidden = false;
        body.dataset.activity = "choosing";
      }
    });
    const ends = document.createElement("p");
    ends.className = "ends";
    ends.append(play, back);
    box.append(ends);
    box.hidden = false;
    if (!overTable) {
      this.box.hidden = true;
      body.dataset.activity = "standings";
    }
    this.view.start();
    back.focus();
  }

  /** Offer the member's table of event `id`'s round in play, if they have one now. */
  async seatIn(id, play) {
    if (!this.signedIn) return;
    try {
      const answer = await askServer("/api/activity/tables", this.signedIn);
      this.list(answer.tables, answer.events ?? [], false);
      const event = (answer.events ?? []).find((e) => e.event === id);
      play.hidden = !event?.table;
      if (event?.table) {
        play.dataset.link = event.table;
        play.textContent = "Play your table";
      }
    } catch {
      // The button stays as it was; the channel's list offers the table too.
    }
  }

  closeStandings() {
    this.view?.stop();
    this.view = null;
    const box = document.querySelector("#standings");
    if (box) box.hidden = true;
  }

  /** Ask the server for the channel's games again and list them; if it fails the
   *  list stays as it was (the refusal being shown says what to do). */
  async relist() {
    try {
      const answer = await askServer("/api/activity/tables", this.signedIn);
      this.list(answer.tables, answer.events ?? []);
    } catch {
      // The list stays; the refusal shown names the game to open.
    }
  }

  /** List the channel's events (their standings) and games, each to open, above the
   *  start buttons (`shown`: and show the list). */
  list(tables, events = [], shown = true) {
    if (shown) body.dataset.activity = "choosing";
    const list = $("#activity-tables");
    list.replaceChildren();
    for (const event of events) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.standings = JSON.stringify(event);
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = event.name;
      const how = document.createElement("span");
      how.className = "how";
      how.textContent = "Standings";
      button.append(what, how);
      item.append(button);
      list.append(item);
    }
    for (const table of tables) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.link = table.link;
      button.dataset.game = String(table.game);
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = `${table.title} · game #${table.game}`;
      const how = document.createElement("span");
      how.className = "how";
      how.textContent = table.seat === null ? "Watch" : "Play your seat";
      button.append(what, how);
      item.append(button);
      list.append(item);
    }
    if (!shown) return;
    this.say(tables.length || events.length
      ? "Choose a game of this channel, or start one."
      : "No game is running in this channel yet: start one.");
    $("#activity-games").hidden = false;
  }

  /** Open the table of a link: its path and token only, never its origin (inside
   *  Discord this page runs behind Discord's proxy, at the Activity's own origin). */
  open(link) {
    const url = new URL(link, location.href);
    const game = url.pathname.split("/").pop();
    this.box.hidden = true;
    body.dataset.activity = "table";
    $("#status").textContent = "Connecting to your table…";
    this.openTable(game, url.searchParams.get("t") ?? "");
  }
}
