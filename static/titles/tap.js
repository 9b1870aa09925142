/* Tap a card to answer: a card with data-option-id checks the matching input of the decision form
   (the plain form stays the way to answer without JavaScript). Each such card gets a button laid
   over it, so it is focusable and Enter or Space picks.

   One tap: when the question is one choice (the form's data-kind is "choose"), tapping a card that
   names an option, or an option's label or radio with a pointer, sends the form at once; the page
   that comes back offers Undo. Keys move between radios without sending (arrows change the pick),
   so a keyboard sends with Enter or the Send button, which stays for every other kind of question.

   The seat page includes this script and so may a title's table; it binds each form and card once,
   and again after the live page swaps the decision in (the "seat:updated" event, static/seat.js). */
(function () {
  "use strict";
  var TAPPED_MS = 1500; /* a click this soon after a pointer was lifted over an option is that tap's */

  function bind() {
    var form = document.querySelector("form.prompt");
    if (!form) return;
    var send = form.querySelector('button[type="submit"]');
    /* a title that queues several steps of a turn before one send (Café's grid) marks its form
       data-queue: a tap then picks a step and the queue's own buttons send */
    function oneTap() {
      return form.getAttribute("data-kind") === "choose" && !form.hasAttribute("data-queue");
    }

    function inputFor(el) {
      var name = el.getAttribute("data-option-input"), id = el.getAttribute("data-option-id");
      var inputs = form.querySelectorAll('input[name="' + CSS.escape(name) + '"]');
      for (var i = 0; i < inputs.length; i++) if (inputs[i].value === id) return inputs[i];
      return null;
    }
    function sendNow() {
      if (form.classList.contains("sending") || !form.reportValidity()) return;
      form.classList.add("sending");
      if (send) send.setAttribute("aria-busy", "true");
      if (form.requestSubmit) form.requestSubmit(send || undefined);
      else form.submit();
    }
    function sync() {
      document.querySelectorAll("button.pic-tap[data-option-id], button.pic-act[data-option-id]").forEach(function (b) {
        var input = inputFor(b);
        if (!input) return;
        var on = input.checked;
        b.setAttribute("aria-pressed", on ? "true" : "false");
        var card = b.closest(".pic");
        if (card) card.classList.toggle("picked", on);
      });
    }
    function pick(b) {
      var input = inputFor(b);
      if (!input) return;
      input.checked = input.type === "checkbox" ? !input.checked : true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      sync();
      if (input.type !== "radio") return;
      if (oneTap()) {
        sendNow();
      } else if (send) {
        send.scrollIntoView({ block: "center" });
        send.focus({ preventScroll: true });
      }
    }

    var cards = 0;
    document.querySelectorAll(".pic[data-option-id], button.pic-act[data-option-id]").forEach(function (el) {
      if (!inputFor(el)) return;
      cards++;
      if (el.hasAttribute("data-tap-bound")) return;
      el.setAttribute("data-tap-bound", "");
      var b = el;
      if (el.tagName !== "BUTTON") {
        b = document.createElement("button");
        b.type = "button";
        b.className = "pic-tap";
        ["data-option-id", "data-option-input"].forEach(function (a) { b.setAttribute(a, el.getAttribute(a)); });
        b.setAttribute("aria-label", el.getAttribute("data-option-label"));
        el.appendChild(b);
        el.classList.add("is-option");
      }
      b.hidden = false;
      b.addEventListener("click", function () { pick(b); });
    });
    var tip = document.querySelector(".pic-tip");
    if (tip && cards) tip.hidden = false;

    if (form.hasAttribute("data-tap-bound")) return sync();
    form.setAttribute("data-tap-bound", "");
    form.addEventListener("change", sync);
    if (form.getAttribute("data-kind") === "choose") {
      var lifted = 0;
      form.addEventListener("pointerup", function (e) {
        if (e.target.closest("label.option, input[type=radio]")) lifted = Date.now();
      });
      /* a pointer's click on a radio (or on its label, which clicks the radio) sends it; a key's does not */
      form.addEventListener("click", function (e) {
        var t = e.target;
        if (t.type === "radio" && t.checked && oneTap() && Date.now() - lifted < TAPPED_MS) sendNow();
      });
      form.querySelectorAll(".one-tap-hint").forEach(function (n) { n.hidden = !oneTap(); });
    }
    sync();
  }

  bind();
  if (!window.cafeTapListening) {
    window.cafeTapListening = true;
    document.addEventListener("seat:updated", bind);
  }
})();
