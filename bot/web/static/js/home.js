// tuque-web's home page: the game last started here is offered first, with the choices
// made for it (computers' level, target, switches), kept in this browser only.

const KEPT = "tuque-new-game";

function kept() {
  try {
    const fields = JSON.parse(localStorage.getItem(KEPT) ?? "null");
    return Array.isArray(fields) ? fields : null;
  } catch {
    return null; // storage off, or not ours: the page's defaults stand
  }
}

/** Open the form of the game in `fields` ([name, value] pairs, as posted) with its values. */
function offer(fields) {
  const chosen = new Map(fields);
  const variant = CSS.escape(String(chosen.get("variant") ?? ""));
  const form = document.querySelector(`form:has(input[name="variant"][value="${variant}"])`);
  if (!form) return;
  for (const select of form.querySelectorAll("select")) {
    const value = chosen.get(select.name);
    if ([...select.options].some((option) => option.value === value)) select.value = value;
  }
  for (const box of form.querySelectorAll("input[type=checkbox]")) {
    box.checked = chosen.get(box.name) === box.value;
  }
  for (const details of document.querySelectorAll("details.variant")) {
    details.open = details.contains(form);
  }
}

const fields = kept();
if (fields) offer(fields);

document.addEventListener("submit", (event) => {
  const pairs = [...new FormData(event.target)].map(([name, value]) => [name, String(value)]);
  try { localStorage.setItem(KEPT, JSON.stringify(pairs)); } catch { /* storage off */ }
});
