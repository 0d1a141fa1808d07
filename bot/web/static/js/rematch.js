// Play again at the game's end: the server starts the same game, options and computers'
// level again (hello's `rematch`, tuque-web only) and sends the browser to the new
// table. The form posts the seat's link token, the newest of which is in the address.

const form = document.querySelector("#rematch");

form.addEventListener("submit", () => {
  form.elements.t.value = new URLSearchParams(location.search).get("t") ?? "";
});

/**
 * Offer Play again in the result panel, posted to `address`; where it is null and no
 * `home` starts games either (the bot's tables), say where Discord's Rematch button is.
 */
export function offerRematch(address, home) {
  form.hidden = !address;
  if (address) form.action = address;
  document.querySelector("#rematch-discord").hidden = Boolean(address || home);
}
