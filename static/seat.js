/* The seat page must never be shown as it was: a page kept in the back-forward cache still holds an
   old question and its old pick, one click away from being sent. Coming back to it loads the table
   as it is now (the page is a GET, so reloading it changes nothing). */
window.addEventListener("pageshow", function (event) {
  "use strict";
  if (event.persisted) window.location.reload();
});

/* A live page: every few seconds the page asks its check (games/views/live.py) whether anything it
   shows has changed since it was drawn; the check answers 204 (nothing new) or 200 (changed) and
   nothing more. On a change the page fetches itself and swaps its live regions ([data-live]) in
   place, with the tab's title and icon. A region holding a form the player has begun to fill in
   (ticked, typed, a field with focus, or the decision's region worked on) is kept as it is, with
   its answer; the regions inside it are swapped. Hidden tabs ask less and less often; a link that no longer opens the seat stops it.
   Without script the page is the same page, brought up to date by a reload. What the note says comes
   from the page, in the reader's language (#live's data-say-* attributes); the English here is a fallback. */
(function () {
  "use strict";
  var note = document.getElementById("live");
  if (!note || !window.fetch || !window.DOMParser) return;
  var check = note.getAttribute("data-check");
  var ENGLISH = {
    updated: "The table was brought up to date at %(time)s.",
    "your-move": "Your move.",
    kept: "What you began to fill in is kept as you left it.",
    gone: "This page no longer opens your seat: reload it to see why.",
    stopped: "This page stopped updating: reload it.",
  };
  function say(name, values) {
    var text = note.getAttribute("data-say-" + name) || ENGLISH[name];
    Object.keys(values || {}).forEach(function (k) { text = text.split("%(" + k + ")s").join(values[k]); });
    return text;
  }
  var EVERY = 2500, HIDDEN_FIRST = 10000, HIDDEN_MOST = 120000, FAIL_MOST = 60000;
  var timer = null, hiddenDelay = HIDDEN_FIRST, failDelay = 0, busy = false, stopped = false;

  /* forms the player has touched stay as they are until sent */
  function touched(event) {
    var form = event.target && event.target.form;
    if (form) form.setAttribute("data-touched", "");
  }
  document.addEventListener("input", touched, true);
  document.addEventListener("change", touched, true);
  /* so does the decision once the player works on its region (a card turned on a grid, a card
     tapped): the state of a title's script there is theirs too */
  function engaged(event) {
    var region = event.target && event.target.closest && event.target.closest("[data-live]");
    while (region) {
      var form = region.querySelector("form.prompt");
      if (form) return form.setAttribute("data-touched", "");
      region = region.parentElement && region.parentElement.closest("[data-live]");
    }
  }
  document.addEventListener("pointerdown", engaged, true);
  document.addEventListener("keydown", engaged, true);
  /* a form being sent is the page moving on: ask nothing more of this one */
  document.addEventListener("submit", function (event) { if (!event.defaultPrevented) stop(""); });
  window.addEventListener("pagehide", function () { stop(""); });

  /* stylesheets linked inside regions stay loaded while their region is swapped (no flash) */
  document.querySelectorAll("body link[rel~='stylesheet']").forEach(function (link) {
    var href = link.getAttribute("href");
    if (!document.head.querySelector("link[rel~='stylesheet'][href='" + CSS.escape(href) + "']")) {
      document.head.appendChild(link.cloneNode(true));
    }
  });

  function inUse(region) {
    if (region.querySelector("form[data-touched]")) return true;
    var active = document.activeElement;
    return !!(active && active !== document.body && region.contains(active) && active.form &&
      active.matches("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select"));
  }
  function outermost(root) {
    return Array.prototype.filter.call(root.querySelectorAll("[data-live]"), function (el) {
      var up = el.parentElement && el.parentElement.closest("[data-live]");
      return !up || up === root || !root.contains(up);
    });
  }
  function rerunScripts(node) {
    node.querySelectorAll("script").forEach(function (old) {
      var type = old.getAttribute("type");
      if (type && type !== "text/javascript" && type !== "module") return; /* data, e.g. json_script */
      var s = document.createElement("script");
      Array.prototype.forEach.call(old.attributes, function (a) { s.setAttribute(a.name, a.value); });
      s.async = false;
      s.text = old.text;
      old.replaceWith(s);
    });
  }
  /* swap each region from the fetched page; a region in use keeps itself and swaps the regions inside */
  function swap(regions, doc, kept) {
    regions.forEach(function (old) {
      var fresh = old.id && doc.getElementById(old.id);
      if (!fresh) return;
      if (inUse(old)) {
        kept.push(old);
        swap(outermost(old), doc, kept);
        return;
      }
      var focusId = old.contains(document.activeElement) && document.activeElement.id;
      var node = document.importNode(fresh, true);
      old.replaceWith(node);
      rerunScripts(node);
      if (focusId && document.getElementById(focusId)) document.getElementById(focusId).focus({ preventScroll: true });
    });
  }
  function clock() {
    var d = new Date();
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
  function apply(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("live");
    if (!fresh) return stop(say("gone"));
    var wasMine = !!document.querySelector("form.prompt");
    var kept = [];
    swap(outermost(document.body), doc, kept);
    document.title = doc.title;
    var icon = document.querySelector("link[rel~='icon']"), newIcon = doc.querySelector("link[rel~='icon']");
    if (icon && newIcon && icon.getAttribute("href") !== newIcon.getAttribute("href")) {
      icon.replaceWith(document.importNode(newIcon, true));
    }
    note.setAttribute("data-v", fresh.getAttribute("data-v"));
    var mine = !!doc.querySelector("form.prompt");
    var words = [];
    if (mine && !wasMine) words.push(say("your-move"));
    words.push(say("updated", { time: clock() }));
    if (kept.length) words.push(say("kept"));
    note.textContent = words.join(" ");
    document.dispatchEvent(new CustomEvent("seat:updated"));
  }
  function stop(words) {
    stopped = true;
    clearTimeout(timer);
    if (words) {
      note.textContent = words;
      note.classList.add("stopped");
    }
  }
  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    var wait = EVERY;
    if (failDelay) wait = failDelay;
    else if (document.hidden) {
      wait = hiddenDelay;
      hiddenDelay = Math.min(hiddenDelay * 2, HIDDEN_MOST);
    }
    timer = setTimeout(tick, wait);
  }
  function refresh() {
    return fetch(window.location.pathname, { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      return r.text().then(function (html) {
        if (stopped) return;
        if (r.status === 200) apply(html);
        else stop(say("gone"));
      });
    });
  }
  function tick() {
    if (stopped || busy) return;
    busy = true;
    var url = check + "?v=" + encodeURIComponent(note.getAttribute("data-v"));
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.status === 204) return null;
        if (r.status === 200) return refresh();
        return r.text().then(function (words) { stop(words || say("stopped")); });
      })
      .then(function () { failDelay = 0; }, function () {
        failDelay = Math.min(Math.max(failDelay * 2, 5000), FAIL_MOST); /* offline: ask again, less often */
      })
      .then(function () { busy = false; schedule(); });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || stopped) return;
    hiddenDelay = HIDDEN_FIRST;
    if (!busy) { clearTimeout(timer); tick(); }
  });
  schedule();
})();
