/* Copy buttons for the host's shared links. Without script the link is a read-only box to select; with it,
   a Copy button puts the link on the clipboard (the Clipboard API, or, where that is refused or missing, the
   older copy command on the selected box), and says what happened, in the words its status line carries
   (data-say-copied, data-say-selected on .copied: the page's language), English only where they are missing. */
(function () {
  "use strict";
  function words(button, name, english) {
    var status = button.parentNode.querySelector(".copied");
    return (status && status.getAttribute("data-say-" + name)) || english;
  }
  function said(button, text) {
    var status = button.parentNode.querySelector(".copied");
    if (status) status.textContent = text;
  }
  function fallback(input, button) {
    input.focus();
    input.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    said(button, done ? words(button, "copied", "Copied.")
      : words(button, "selected", "Selected: press Ctrl+C (or hold and choose Copy) to copy it."));
  }
  document.querySelectorAll("button.copy[data-copy]").forEach(function (button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(
          function () { said(button, words(button, "copied", "Copied.")); },
          function () { fallback(input, button); }
        );
      } else {
        fallback(input, button);
      }
    });
  });
})();
