/* Tap a card to answer: a card with data-option-id checks the matching input of the decision form
   (the plain form stays the way to answer without JavaScript). Each such card gets a button laid
   over it, so it is focusable and Enter or Space picks; a pick of one moves on to the Send button. */
(function () {
  "use strict";
  var form = document.querySelector("form.prompt");
  if (!form) return;
  var send = form.querySelector('button[type="submit"]');
  function inputFor(el) {
    var name = el.getAttribute("data-option-input"), id = el.getAttribute("data-option-id");
    var inputs = form.querySelectorAll('input[name="' + CSS.escape(name) + '"]');
    for (var i = 0; i < inputs.length; i++) if (inputs[i].value === id) return inputs[i];
    return null;
  }
  var buttons = [];
  function sync() {
    buttons.forEach(function (b) {
      var input = inputFor(b), on = !!(input && input.checked);
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
    if (input.type === "radio" && send) {
      send.scrollIntoView({ block: "center" });
      send.focus({ preventScroll: true });
    }
  }
  document.querySelectorAll(".pic[data-option-id], button.pic-act[data-option-id]").forEach(function (el) {
    if (!inputFor(el)) return;
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
    buttons.push(b);
  });
  form.addEventListener("change", sync);
  sync();
  var tip = document.querySelector(".pic-tip");
  if (tip && buttons.length) tip.hidden = false;
})();
