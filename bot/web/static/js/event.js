// The standings page, /event/<id>?t=<token> (docs/events.md, "On the web"): the view of
// standings.js over the whole page. The fresh token each answer brings replaces the
// address's, so a reload opens the page again.

import { StandingsView } from "./standings.js";

const event = Number(location.pathname.split("/").pop());
const query = new URLSearchParams(location.search);
const view = new StandingsView(document.querySelector("#standings"), {
  event,
  token: query.get("t") ?? "",
  onToken: (token) => {
    query.set("t", token);
    history.replaceState(null, "", `${location.pathname}?${query}`);
  },
});
view.start();
