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

// The system's theme, followed while the member chose none (the table's own choice,
// made on the web table, is kept in the same place: theme.js).
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", (change) => {
  let chosen = null;
  try { chosen = localStorage.getItem("tuque-theme"); } catch { /* storage off */ }
  if (!chosen) document.documentElement.dataset.theme = change.matches ? "dark" : "light";
});
