/* The decision form, made easier to answer; without script it works as it is (games/forms/prompts.py).

   A ranking (ul.ranks, one number box a row): drag a row by its grip (or, with a mouse, anywhere on
   it), or move it with its ▲ ▼ buttons, or with the arrow keys (Home and End: first and last) while
   one of its buttons has the focus. The boxes follow the rows, so the form posts the same fields as
   when they are typed; a live region says each row's new place.

   A number (div.stepper): − and + buttons beside the box, big enough for a thumb, that stay within
   its bounds.

   What it says comes from the form, in the reader's language (data-say-* on form.prompt, with
   %(name)s placeholders); the English here is only a fallback. */
(function () {
  "use strict";
  var form = document.querySelector("form.prompt");
  if (!form) return;
  var ENGLISH = {
    "rank-help": "Put your favourite first: drag a row by its grip ⠿, or move it with ▲ and ▼ " +
      "(arrow keys work on them too). The number shows its place.",
    "move-up": "Move %(choice)s up",
    "move-down": "Move %(choice)s down",
    "this-choice": "this choice",
    placed: "%(choice)s: now %(place)s of %(count)s.",
  };
  function say(name, values) {
    var text = form.getAttribute("data-say-" + name) || ENGLISH[name];
    Object.keys(values || {}).forEach(function (k) { text = text.split("%(" + k + ")s").join(String(values[k])); });
    return text;
  }

  /* ---- rankings ------------------------------------------------------------------------------ */
  form.querySelectorAll("ul.ranks").forEach(function (list) {
    var rows = Array.prototype.slice.call(list.querySelectorAll(":scope > li.rank"));
    if (rows.length < 2) return;
    var n = rows.length;
    var said = document.createElement("p");
    said.className = "vh rank-say";
    said.setAttribute("aria-live", "polite");
    list.parentNode.insertBefore(said, list.nextSibling);
    var help = list.previousElementSibling;
    if (help && help.classList.contains("hint")) {
      help.textContent = say("rank-help");
    }
    function box(li) { return li.querySelector('input[type="number"]'); }
    function name(li) {
      var l = li.querySelector(".label");
      return l ? l.textContent.trim() : say("this-choice");
    }
    // start from the order the boxes say (a form shown again keeps what was sent)
    rows.sort(function (a, b) { return (+box(a).value || n) - (+box(b).value || n); });
    rows.forEach(function (li) { list.appendChild(li); });
    list.classList.add("sortable");
    rows.forEach(function (li) {
      var input = box(li);
      input.readOnly = true;
      input.tabIndex = -1;
      input.classList.add("place");
      var grip = document.createElement("span");
      grip.className = "grip";
      grip.setAttribute("aria-hidden", "true");
      grip.textContent = "⠿";
      li.insertBefore(grip, li.firstChild);
      var moves = document.createElement("span");
      moves.className = "moves";
      [["up", "▲", -1], ["down", "▼", 1]].forEach(function (m) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "move " + m[0];
        b.textContent = m[1];
        b.setAttribute("aria-label", say("move-" + m[0], { choice: name(li) }));
        b.addEventListener("click", function () { move(li, m[2], b); });
        b.addEventListener("keydown", function (e) {
          var to = { ArrowUp: -1, ArrowDown: 1 }[e.key];
          if (to) { e.preventDefault(); move(li, to, li.querySelector(".move." + (to < 0 ? "up" : "down"))); }
          else if (e.key === "Home" || e.key === "End") {
            e.preventDefault();
            place(li, e.key === "Home" ? 0 : n - 1);
            announce(li);
            b.focus();
          }
        });
        moves.appendChild(b);
      });
      li.appendChild(moves);
      drag(li, grip);
    });
    renumber();

    function order() { return Array.prototype.slice.call(list.querySelectorAll(":scope > li.rank")); }
    function renumber() {
      order().forEach(function (li, i) {
        box(li).value = String(i + 1);
        li.querySelector(".move.up").disabled = i === 0;
        li.querySelector(".move.down").disabled = i === n - 1;
      });
    }
    function place(li, at) {
      var now = order();
      now.splice(now.indexOf(li), 1);
      now.splice(at, 0, li);
      now.forEach(function (row) { list.appendChild(row); });
      renumber();
    }
    function announce(li) {
      said.textContent = say("placed", { choice: name(li), place: order().indexOf(li) + 1, count: n });
    }
    function move(li, by, keep) {
      var at = order().indexOf(li) + by;
      if (at < 0 || at >= n) return;
      place(li, at);
      announce(li);
      // moving a row loses the focus of its button: give it back, or to the other one at an end
      var button = keep && !keep.disabled ? keep : li.querySelector(".move:not([disabled])");
      if (button) button.focus();
    }
    function drag(li, grip) {
      var moved = false;
      li.addEventListener("pointerdown", function (e) {
        var onGrip = e.target === grip;
        if (e.button !== 0 || (!onGrip && e.pointerType !== "mouse")) return;  // touch: the grip only, so rows still scroll
        if (e.target.closest("button")) return;
        e.preventDefault();
        li.setPointerCapture(e.pointerId);
        li.classList.add("dragging");
        moved = false;
      });
      li.addEventListener("pointermove", function (e) {
        if (!li.classList.contains("dragging")) return;
        var prev = li.previousElementSibling, next = li.nextElementSibling;
        // the others move around the dragged row: moving it out of the page would end the drag
        while (prev && e.clientY < mid(prev)) { list.insertBefore(prev, li.nextElementSibling); prev = li.previousElementSibling; moved = true; }
        while (next && e.clientY > mid(next)) { list.insertBefore(next, li); next = li.nextElementSibling; moved = true; }
      });
      function drop() {
        if (!li.classList.contains("dragging")) return;
        li.classList.remove("dragging");
        renumber();
        if (moved) announce(li);
      }
      li.addEventListener("pointerup", drop);
      li.addEventListener("pointercancel", drop);
      li.addEventListener("lostpointercapture", drop);
    }
    function mid(el) {
      var r = el.getBoundingClientRect();
      return r.top + r.height / 2;
    }
  });

  /* ---- numbers: − and + ---------------------------------------------------------------------- */
  form.querySelectorAll(".stepper").forEach(function (stepper) {
    var input = stepper.querySelector('input[type="number"]');
    if (!input) return;
    var buttons = stepper.querySelectorAll("button.step");
    function bounds() {
      var v = parseInt(input.value, 10);
      buttons.forEach(function (b) {
        var by = +b.dataset.step;
        b.disabled = !isNaN(v) && ((by < 0 && input.min !== "" && v <= +input.min) || (by > 0 && input.max !== "" && v >= +input.max));
      });
    }
    buttons.forEach(function (b) {
      b.hidden = false;
      b.addEventListener("click", function () {
        var v = parseInt(input.value, 10);
        if (isNaN(v)) v = input.min !== "" ? +input.min : 0;
        else v += +b.dataset.step;
        if (input.min !== "") v = Math.max(+input.min, v);
        if (input.max !== "") v = Math.min(+input.max, v);
        input.value = String(v);
        input.dispatchEvent(new Event("input", { bubbles: true }));
        input.dispatchEvent(new Event("change", { bubbles: true }));
        bounds();
        if (b.disabled) input.focus();
      });
    });
    input.addEventListener("input", bounds);
    stepper.classList.add("has-steps");
    bounds();
  });
})();
