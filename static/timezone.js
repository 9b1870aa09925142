/* The timezone menu defaults to this browser's zone: a person still on the default (UTC) whose browser
   says otherwise finds their own zone chosen, with a note, and keeps it by saving. A zone chosen before
   is left alone. Without script the menu simply shows the saved zone. The note's words come from the
   script's own tag (data-say-zone, in the page's language, with a %(zone)s placeholder). */
(function () {
  "use strict";
  var me = document.currentScript;
  var words = (me && me.getAttribute("data-say-zone")) ||
    "Set to your browser's timezone, %(zone)s (it was UTC): press Save to keep it.";
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
  document.querySelectorAll("select[data-browser-zone]").forEach(function (menu) {
    if (!zone || menu.value !== "UTC" || zone === "UTC") return;
    var known = Array.prototype.some.call(menu.options, function (o) { return o.value === zone; });
    if (!known) return;
    menu.value = zone;
    var note = document.createElement("small");
    note.className = "browser-zone";
    note.setAttribute("role", "status");
    note.textContent = words.split("%(zone)s").join(zone);
    menu.insertAdjacentElement("afterend", note);
  });
})();
