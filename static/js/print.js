// The print pages' "Print" button: shown only where scripts run, opens the print dialog.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
