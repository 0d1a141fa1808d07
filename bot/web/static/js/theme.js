// Before the first paint: the theme the member chose, else the system's (no flash).
// A classic script loaded in <head>, not inline: the Content-Security-Policy allows
// scripts from the server's own files only (docs/web.md, "Closed to other sites").
(() => {
  let theme = null;
  try { theme = localStorage.getItem("tuque-theme"); } catch { /* storage off */ }
  if (theme !== "light" && theme !== "dark") {
    theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  document.documentElement.dataset.theme = theme;
})();
