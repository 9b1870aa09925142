/* Café seat page: place a plan card by tapping your area, turn it, preview each legal footprint;
   take each action by tapping the area (and its Warehouse, Clear and Stop buttons); highlight the
   squares an action names; tap a card on offer to pick it; say near Send what Send will do. The
   form stays the source of truth: every choice here only ticks one of its radio buttons (value =
   an option id of the prompt), so the server's checks are the same as for the list.
   A turn's steps may be queued: the server draws the table as it will be after each (nothing is
   played) and this script draws again from it; Send then plays them all, or none. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var form = document.querySelector("form.prompt");
  var run = null;  // the listeners of the table as drawn now: a queued step redraws it, and they go with it
  // the queued steps, their words, and what was drawn before each (to take one back): the table and
  // the question as the server sent them, before this script changed them
  var queue = { urls: null, steps: [], labels: [], back: [], closed: "", note: "", table: null, fieldset: null };
  // What it says comes from the page, in the reader's language (data-say-* on #cafe-words, with
  // %(name)s placeholders, from the table's template); the English here is only a fallback.
  var ENGLISH = {
    "area-label": "Your business area: choose where the card goes. Arrow keys move, R turns, Enter chooses.",
    "all-placements": "Or pick from the list of all %(n)s placements",
    turned: "turned %(degrees)s°",
    "not-turned": "not turned",
    or: "%(first)s or %(next)s",
    and: "%(first)s and %(next)s",
    "cannot-turn": "Row %(row)s, col %(col)s: with the card %(turn)s, its top-left corner cannot go here; %(turns)s it can: press Turn.",
    cannot: "Row %(row)s, col %(col)s: with the card %(turn)s, its top-left corner cannot go here. Try another square or Turn.",
    "here-chosen": "Row %(row)s, col %(col)s: %(placement)s (chosen)",
    here: "Row %(row)s, col %(col)s: %(placement)s. Tap or press Enter to choose it.",
    "chosen-place": "Chosen: %(placement)s. Press Send below to place it.",
    "card-turned": "Card %(turn)s. %(where)s",
    "chosen-now": "%(step)s (chosen now)",
    "will-play": "Send will play, in order: %(steps)s.",
    will: "Send will: %(step)s",
    "nothing-chosen": "Nothing chosen yet.",
    clear: "Clear",
    "roast-cubes": "the cubes on roast square %(cell)s",
    "bean-cubes": "the %(colour)s cubes on bean squares",
    "dry-cubes": "the %(colour)s cubes on dry squares",
    yellow: "yellow",
    brown: "brown",
    green: "green",
    red: "red",
    cell: "row %(row)s, col %(col)s",
    "next-dry": "an empty dry square",
    "next-roast": "an empty roast square",
    "next-deliver": "a coffee shop",
    "next-store": "the Warehouse button",
    "next-clear": "a square with cubes (it is cleared for free)",
    "first-dry": "first tap the cubes on bean squares to dry them here.",
    "first-roast": "first tap the cubes on dry squares to roast them here.",
    "first-deliver": "first tap the roast squares whose cubes you deliver.",
    "first-store": "first tap the roast squares whose cubes you store.",
    "first-clear": "first press Clear cubes, then tap the square.",
    clearing: "Clear:",
    selected: "Selected %(cubes)s.",
    "no-action": "No action uses these together: tap them again to unselect.",
    "now-tap-more": "Now tap %(targets)s, or select more cubes.",
    "now-tap": "Now tap %(targets)s.",
    "select-more": "Select more cubes.",
    "chosen-do": "Chosen: %(step)s. Press Send to do it.",
    "nothing-selected": "Nothing selected.",
    "at-cell": "%(cell)s: %(what)s",
    "nothing-there": "nothing to do there now.",
    "coffee-shop": "Coffee shop",
    "chosen-list": "Chosen in the list: %(step)s.",
    "so-far": "Your turn so far (not sent yet)",
    "so-far-hint": "Your area shows your turn as it will be after these steps. Nothing is played until you send.",
    several: "Several steps this turn? Queue each one as you choose it: your area is drawn as it will be, and Send plays them all at once.",
    "queue-it": "Queue it, then choose the next step +",
    "take-back": "Take back the last queued step",
    "send-steps-one": "Send my turn (%(n)s step)",
    "send-steps": "Send my turn (%(n)s steps)",
    send: "Send",
    "choose-first": "Choose a step first: tap your area or pick from the list.",
    queueing: "Queueing…",
    "no-preview": "The server could not preview that step (status %(status)s). Send it on its own instead.",
    "no-answer": "No answer from the server: nothing was queued. Try again, or send this step on its own.",
    "queued-next": "Queued: %(step)s. Choose your next step, or send your turn.",
    "turn-queued": "Your turn is queued",
    "last-step": "That is the last step of your turn: send it to play it.",
    queued: "Queued: %(step)s. %(then)s",
    "taken-back": "Taken back: %(step)s.",
  };
  function word(name, values) {
    var holder = document.getElementById("cafe-words");
    var text = (holder && holder.getAttribute("data-say-" + name)) || ENGLISH[name] || name;
    Object.keys(values || {}).forEach(function (k) { text = text.split("%(" + k + ")s").join(String(values[k])); });
    return text;
  }
  function joined(items, how) {
    // "a or b or c": each pair joined as the language joins it
    return items.reduce(function (all, w) { return all === null ? w : word(how, { first: all, next: w }); }, null) || "";
  }
  init();

  function init() {
  if (run) run.abort();
  run = new AbortController();
  var holder = document.getElementById("cafe-data");
  if (!holder && !queue.steps.length) return;
  if (queue.table === null) {
    var first = document.querySelector("section.cafe-tbl"), set = form && form.querySelector("fieldset");
    queue.table = first ? first.outerHTML : "";
    queue.fieldset = set ? set.innerHTML : "";
  }
  var data = holder ? JSON.parse(holder.textContent) : {};  // none: the queue ends the turn, nothing more to tap
  var U = data.unit || 100;
  function on(target, type, fn) { target.addEventListener(type, fn, { signal: run.signal }); }

  function radio(id) {
    if (!form) return null;
    var all = form.querySelectorAll('input[name="answer"]');
    for (var i = 0; i < all.length; i++) if (all[i].value === id) return all[i];
    return null;
  }
  function choose(id) {
    var r = radio(id);
    if (!r) return false;
    r.checked = true;
    r.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  }
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function txt(parent, cls, x, y, s) {
    var t = el("text", { class: cls, x: x, y: y }, parent);
    t.textContent = s;
    return t;
  }
  function square(parent, c, x, y) {
    var g = el("g", { class: "cafe-cell " + c.cls, transform: "translate(" + x + " " + y + ")" }, parent);
    el("rect", { class: "sq", width: U, height: U }, g);
    if (c.kind === "cup") el("path", { class: "icon", d: "M34 40h28v14a14 14 0 0 1-28 0z M62 44h6a6 6 0 0 1 0 12h-6" }, g);
    if (c.kind === "ship") el("path", { class: "icon", d: "M24 58h52l-8 14H32z M48 36v20 M48 36l14 16H48" }, g);
    if (c.word) txt(g, "w", 50, 30, c.word);
    if (c.small) txt(g, "s", 50, 47, c.small);
    return g;
  }

  /* ---- placing a card ------------------------------------------------------------------------ */
  var places = data.placements || [];
  var grid = document.getElementById("cafe-grid");
  if (places.length && grid && form) setupPlacing(grid);

  function setupPlacing(grid) {
    var svg = grid.querySelector("svg.cafe-area");
    var layer = svg.querySelector(".cafe-layer");
    var say = document.getElementById("cafe-say");
    var turnBtn = document.getElementById("cafe-turn");
    var handBox = document.getElementById("cafe-hand-card");
    var box = {
      top: +svg.dataset.top, left: +svg.dataset.left, bottom: +svg.dataset.bottom, right: +svg.dataset.right
    };
    var byAnchor = {}, byId = {}, rots = [];
    places.forEach(function (p) {
      byAnchor[p.row + "," + p.col + "," + p.rot] = p;
      byId[p.id] = p;
      if (rots.indexOf(p.rot) < 0) rots.push(p.rot);
    });
    rots.sort(function (a, b) { return a - b; });
    var rot = places[0].rot, anchor = { row: places[0].row, col: places[0].col }, chosen = null;

    document.querySelectorAll(".cafe-js-only").forEach(function (n) { n.hidden = false; });
    document.querySelectorAll(".cafe-nojs").forEach(function (n) { n.hidden = true; });
    svg.classList.add("placing");
    grid.setAttribute("tabindex", "0");
    grid.setAttribute("role", "application");
    grid.setAttribute("aria-label", word("area-label"));
    grid.setAttribute("aria-describedby", "cafe-say");
    grid.dataset.rot = rot;

    // the long list of placements folds away under the picture (still there, still works)
    var list = form && form.querySelector("ul.options");
    if (list && list.children.length > 6 && !list.closest("details.cafe-list")) {
      var det = document.createElement("details");
      det.className = "cafe-list";
      var sum = document.createElement("summary");
      sum.textContent = word("all-placements", { n: places.length });
      det.appendChild(sum);
      list.parentNode.insertBefore(det, list);
      det.appendChild(list);
    }

    function find(row, col) {
      // only the placement whose top-left corner is this square, in the current turn: the hint
      // promises the tapped square becomes the corner (a nearby placement covering it is not offered)
      return byAnchor[row + "," + col + "," + rot] || null;
    }
    function otherTurns(row, col) {
      // the turns in which the card's top-left corner may go on this square
      return rots.filter(function (r) { return r !== rot && byAnchor[row + "," + col + "," + r]; });
    }
    function turned(r) { return r ? word("turned", { degrees: r }) : word("not-turned"); }
    function none(row, col) {
      var also = otherTurns(row, col);
      var where = { row: row, col: col, turn: turned(rot) };
      if (also.length) where.turns = joined(also.map(turned), "or");
      return word(also.length ? "cannot-turn" : "cannot", where);
    }
    function footprint(p, cls) {
      var g = el("g", { class: cls, "data-placement": p.id }, layer);
      var minR = 1e9, minC = 1e9, maxR = -1e9, maxC = -1e9;
      p.cells.forEach(function (c) {
        square(g, c, c.col * U, c.row * U);
        minR = Math.min(minR, c.row); maxR = Math.max(maxR, c.row);
        minC = Math.min(minC, c.col); maxC = Math.max(maxC, c.col);
      });
      el("rect", {
        class: "pv-box", x: minC * U, y: minR * U, width: (maxC - minC + 1) * U, height: (maxR - minR + 1) * U, rx: 6
      }, g);
      return g;
    }
    function draw(row, col, focusCursor) {
      while (layer.firstChild) layer.removeChild(layer.firstChild);
      if (chosen) footprint(chosen, "pv chosen");
      var p = row === null ? null : find(row, col);
      if (p && p !== chosen) footprint(p, "pv");
      if (row !== null && !p) el("rect", { class: "nope", x: col * U + 6, y: row * U + 6, width: U - 12, height: U - 12 }, layer);
      if (focusCursor && row !== null) el("rect", { class: "cursor", x: col * U + 2, y: row * U + 2, width: U - 4, height: U - 4 }, layer);
      if (row !== null) {
        say.textContent = p
          ? word(p === chosen ? "here-chosen" : "here", { row: row, col: col, placement: p.text })
          : none(row, col);
      }
      return p;
    }
    function drawHand() {
      var p = null;
      for (var i = 0; i < places.length; i++) if (places[i].rot === rot) { p = places[i]; break; }
      if (!p || !handBox) return;
      var minR = Math.min.apply(null, p.cells.map(function (c) { return c.row; }));
      var minC = Math.min.apply(null, p.cells.map(function (c) { return c.col; }));
      var tall = Math.max.apply(null, p.cells.map(function (c) { return c.row; })) - minR + 1;
      var wide = Math.max.apply(null, p.cells.map(function (c) { return c.col; })) - minC + 1;
      var s = handBox.querySelector("svg");
      var title = s.querySelector("title").cloneNode(true);
      while (s.firstChild) s.removeChild(s.firstChild);
      s.appendChild(title);
      s.setAttribute("viewBox", "-4 -4 " + (wide * U + 8) + " " + (tall * U + 8));
      s.style.maxWidth = wide === 3 ? "12rem" : "8rem";
      p.cells.forEach(function (c) { square(s, c, (c.col - minC) * U, (c.row - minR) * U); });
      el("rect", { class: "card-edge", x: 0, y: 0, width: wide * U, height: tall * U, rx: 6 }, s);
      s.dataset.rot = rot;
    }
    function select(p) {
      if (!p) return;
      chosen = p;
      rot = p.rot;
      anchor = { row: p.row, col: p.col };
      grid.dataset.rot = rot;
      grid.dataset.chosen = p.id;
      choose(p.id);
      drawHand();
      draw(p.row, p.col, false);
      say.textContent = word("chosen-place", { placement: p.text });
    }
    function turn() {
      rot = rots[(rots.indexOf(rot) + 1) % rots.length];
      grid.dataset.rot = rot;
      drawHand();
      var p = draw(anchor.row, anchor.col, document.activeElement === grid);
      say.textContent = word("card-turned", { turn: turned(rot), where: p ? p.text : none(anchor.row, anchor.col) });
    }
    function at(e) {
      // the grid square under the pointer, from the pointer's position in SVG units
      var m = svg.getScreenCTM();
      if (!m) return null;
      var pt = svg.createSVGPoint();
      pt.x = e.clientX; pt.y = e.clientY;
      var q = pt.matrixTransform(m.inverse());
      var row = Math.floor(q.y / U), col = Math.floor(q.x / U);
      if (row < box.top || row > box.bottom || col < box.left || col > box.right) return null;
      return { row: row, col: col };
    }

    svg.addEventListener("mousemove", function (e) {
      var c = at(e);
      if (c && (c.row !== anchor.row || c.col !== anchor.col || !layer.firstChild)) { anchor = c; draw(c.row, c.col, false); }
    });
    svg.addEventListener("mouseleave", function () { draw(null, null, false); });
    svg.addEventListener("click", function (e) {
      var c = at(e);
      if (!c) return;
      anchor = c;
      var p = find(c.row, c.col);
      if (p) select(p);
      else draw(c.row, c.col, false);
    });
    grid.addEventListener("focus", function () { draw(anchor.row, anchor.col, true); });
    grid.addEventListener("blur", function () { draw(null, null, false); });
    grid.addEventListener("keydown", function (e) {
      var k = e.key, moved = true;
      if (k === "ArrowUp") anchor.row = Math.max(box.top, anchor.row - 1);
      else if (k === "ArrowDown") anchor.row = Math.min(box.bottom, anchor.row + 1);
      else if (k === "ArrowLeft") anchor.col = Math.max(box.left, anchor.col - 1);
      else if (k === "ArrowRight") anchor.col = Math.min(box.right, anchor.col + 1);
      else moved = false;
      if (moved) { e.preventDefault(); draw(anchor.row, anchor.col, true); return; }
      if (k === "r" || k === "R") { e.preventDefault(); turn(); return; }
      if (k === "Enter" || k === " ") {
        e.preventDefault();
        var p = find(anchor.row, anchor.col);
        if (p) { select(p); draw(anchor.row, anchor.col, true); say.textContent = word("chosen-place", { placement: p.text }); }
      }
    });
    if (turnBtn) turnBtn.addEventListener("click", turn);
    if (form) on(form, "change", function (e) {
      var p = e.target && byId[e.target.value];
      if (p && p !== chosen) select(p);
    });
    drawHand();
    var pre = form && form.querySelector('input[name="answer"]:checked');
    if (pre && byId[pre.value]) select(byId[pre.value]);
  }

  /* ---- words near Send: what the form will post, in the option's own words ------------------ */
  var will = document.getElementById("cafe-will");
  if (form && !will) {
    var send = form.querySelector('button[type="submit"]');
    will = document.createElement("p");
    will.className = "cafe-will";
    will.id = "cafe-will";
    will.setAttribute("aria-live", "polite");
    if (send) send.parentNode.insertBefore(will, send);
  }
  if (form) {
    var sayWill = function () {
      var words = chosenWords();
      if (queue.steps.length) {
        var all = queue.labels.concat(words ? [word("chosen-now", { step: words })] : []);
        will.textContent = word("will-play", { steps: all.map(function (w, i) { return (i + 1) + ". " + w; }).join("; ") });
        return;
      }
      will.textContent = words ? word("will", { step: words }) : word("nothing-chosen");
    };
    on(form, "change", sayWill);
    sayWill();
  }

  /* ---- actions: hovering or focusing an option lights the squares it names ------------------- */
  var acts = data.actions || [];
  var mine = document.querySelector("svg.cafe-area.mine");
  if (acts.length && mine && form) {
    var layer = mine.querySelector(".cafe-layer");
    var cellsOf = {};
    acts.forEach(function (a) { cellsOf[a.id] = a.cells; });
    var light = function (id) {
      while (layer.firstChild) layer.removeChild(layer.firstChild);
      var checked = form.querySelector('input[name="answer"]:checked');
      [id, checked && checked.value].forEach(function (one) {
        (cellsOf[one] || []).forEach(function (rc) {
          el("rect", { class: "hl", x: rc[1] * U + 4, y: rc[0] * U + 4, width: U - 8, height: U - 8, rx: 6, "data-hl": rc[0] + "," + rc[1] }, layer);
        });
      });
    };
    form.querySelectorAll('input[name="answer"]').forEach(function (r) {
      if (!cellsOf[r.value]) return;
      var label = r.closest("label") || r;
      var on = function () { label.classList.add("cafe-hot"); light(r.value); };
      var off = function () { label.classList.remove("cafe-hot"); light(null); };
      label.addEventListener("mouseenter", on);
      label.addEventListener("mouseleave", off);
      r.addEventListener("focus", on);
      r.addEventListener("blur", off);
      r.addEventListener("change", function () { light(r.value); });
    });
    on(form, "change", function () { light(null); });
  }

  /* ---- actions by tapping the area: cubes (or roast squares), then the square, shop or warehouse
     they go to; a bean square to produce; Clear, then a square; Stop. Each option's taps come with
     the page's data ({pick: tokens selected first, on: where the last tap lands}); a pick set and a
     last tap name at most one option, and the tap only ticks that option's radio button. ------- */
  var taps = data.taps || [];
  var tools = document.getElementById("cafe-acts");
  if (taps.length && mine && form && tools) setupActing();

  function setupActing() {
    var say = document.getElementById("cafe-act-say");
    var picks = data.picks || {};
    var tokenCells = {};
    Object.keys(picks).forEach(function (c) { (tokenCells[picks[c]] = tokenCells[picks[c]] || []).push(c); });
    var byId = {}, landing = {}, pickable = {};
    taps.forEach(function (t) {
      byId[t.id] = t;
      t.on.forEach(function (o) { landing[o] = true; });
      t.pick.forEach(function (p) { pickable[p] = true; });
    });
    var picked = [], chosen = null;
    var marks = el("g", { class: "cafe-taps" }, mine);
    var buttons = {};

    function same(a, b) {
      if (a.length !== b.length) return false;
      for (var i = 0; i < a.length; i++) if (b.indexOf(a[i]) < 0) return false;
      return true;
    }
    function lookup(pick, on) {
      var hit = taps.filter(function (t) { return same(t.pick, pick) && t.on.indexOf(on) >= 0; });
      return hit.length === 1 ? hit[0] : null;
    }
    function family(token) { return token.split(":")[0]; }
    function tokenWords(token) {
      if (token === "clear") return word("clear");
      var f = family(token), rest = token.slice(f.length + 1);
      if (f === "roast") return word("roast-cubes", { cell: cellWords(rest) });
      return word(f + "-cubes", { colour: word(rest) });
    }
    function cellWords(id) {
      var m = /^r(-?\d+)c(-?\d+)$/.exec(id);
      return m ? word("cell", { row: m[1], col: m[2] }) : id;
    }
    // what a tap on a target of each kind of action needs next ("next-dry"), and what must come first ("first-dry")
    function NEXT(kind) { return word("next-" + kind); }
    function FIRST(kind) { return word("first-" + kind); }
    function guide() {
      // what the next tap can do with what is selected now
      if (!picked.length) return "";
      var now = [], more = false;
      taps.forEach(function (t) {
        if (same(t.pick, picked)) { if (now.indexOf(NEXT(t.kind)) < 0) now.push(NEXT(t.kind)); }
        else if (picked.every(function (p) { return t.pick.indexOf(p) >= 0; })) more = true;
      });
      var what = (picked.indexOf("clear") >= 0 ? word("clearing") : word("selected", { cubes: joined(picked.map(tokenWords), "and") })) + " ";
      if (!now.length && !more) return what + word("no-action");
      return what + (now.length ? word(more ? "now-tap-more" : "now-tap", { targets: joined(now, "or") }) : word("select-more"));
    }
    function mark() {
      while (marks.firstChild) marks.removeChild(marks.firstChild);
      var on = {};
      picked.forEach(function (p) { (tokenCells[p] || []).forEach(function (c) { on[c] = "picked"; }); });
      var t = chosen && byId[chosen.id];
      if (t && t.kind === "clear") on[chosen.last] = "picked";
      else if (t && /^(produce|dry|roast)$/.test(t.kind)) {
        (acts.filter(function (a) { return a.id === t.id; })[0] || { cells: [] }).cells.forEach(function (rc) { on["r" + rc[0] + "c" + rc[1]] = "goes"; });
      }
      Object.keys(on).forEach(function (c) {
        var m = /^r(-?\d+)c(-?\d+)$/.exec(c), x = +m[2] * U, y = +m[1] * U;
        var g = el("g", { class: "tap-mark " + on[c], "data-mark": c }, marks);
        el("rect", { class: "frame", x: x + 5, y: y + 5, width: U - 10, height: U - 10, rx: 8 }, g);
        // a drawn sign besides the frame, so the choice shows without colour: a tick on what is
        // selected, an arrow-head on the squares the cubes go to
        el("circle", { class: "badge", cx: x + U - 18, cy: y + 18, r: 13 }, g);
        el("path", { class: "sign", d: on[c] === "picked" ? "M" + (x + U - 25) + " " + (y + 18) + "l5 6l10 -12" : "M" + (x + U - 24) + " " + (y + 12) + "l6 6l6 -6M" + (x + U - 18) + " " + (y + 18) + "v-10" }, g);
      });
      Object.keys(buttons).forEach(function (k) {
        var b = buttons[k], pressed = (picks[k] && picked.indexOf(picks[k]) >= 0) || (chosen && chosen.last === k) || (k === "clear" && picked.indexOf("clear") >= 0);
        b.setAttribute("aria-pressed", pressed ? "true" : "false");
        b.classList.toggle("tap-on", !!pressed);
      });
    }
    function unchoose() {
      var r = form.querySelector('input[name="answer"]:checked');
      if (r) { r.checked = false; r.dispatchEvent(new Event("change", { bubbles: true })); }
      chosen = null;
    }
    function tap(on) {
      var t = lookup(picked, on);
      if (!t && !picks[on] && on !== "clear") t = lookup([], on);  // e.g. produce while cubes are selected
      if (t) {
        picked = t.pick.slice();
        choose(t.id);
        chosen = { id: t.id, last: on };
        mark();
        say.textContent = word("chosen-do", { step: t.label });
        return;
      }
      var token = on === "clear" ? "clear" : picks[on];
      if (token && pickable[token]) {
        var i = picked.indexOf(token);
        if (i >= 0) picked.splice(i, 1);
        else if (picked.length && family(picked[0]) !== family(token)) picked = [token];
        else picked.push(token);
        unchoose();
        mark();
        say.textContent = guide() || word("nothing-selected");
        return;
      }
      var could = taps.filter(function (t) { return t.on.indexOf(on) >= 0; });
      var what = could.length ? FIRST(could[0].kind) : word("nothing-there");
      say.textContent = on.charAt(0) === "r" ? word("at-cell", { cell: cellWords(on), what: what }) : what;
    }
    function button(node, token, words) {
      // a square or shop says its name through its <title> (the words it shows are part of it)
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-pressed", "false");
      if (!node.querySelector("title")) node.setAttribute("aria-label", words);
      node.setAttribute("data-tap", token);
      node.classList.add("tappable");
      node.addEventListener("click", function () { tap(token); });
      node.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(token); }
      });
      buttons[token] = node;
    }

    // the squares and shops become buttons: the picture is a group of them, no longer one image
    mine.setAttribute("role", "group");
    mine.classList.add("acting");
    mine.querySelectorAll("g.cafe-cell[data-row]").forEach(function (g) {
      var id = "r" + g.dataset.row + "c" + g.dataset.col;
      if (!landing[id] && !(picks[id] && pickable[picks[id]])) return;
      var t = g.querySelector("title");
      el("rect", { class: "ring", x: 3, y: 3, width: U - 6, height: U - 6, rx: 8 }, g);
      button(g, id, t ? t.textContent : cellWords(id));
    });
    mine.querySelectorAll("g.shop[data-shop]").forEach(function (g) {
      var id = "shop:" + g.dataset.shop;
      if (!landing[id]) return;
      var box = g.querySelector(".shop-box"), t = g.querySelector("title");
      el("rect", { class: "ring", x: +box.getAttribute("x") - 2, y: +box.getAttribute("y") - 2, width: +box.getAttribute("width") + 4, height: +box.getAttribute("height") + 4, rx: 12 }, g);
      button(g, id, t ? t.textContent : word("coffee-shop"));
    });
    tools.querySelectorAll("button[data-tap]").forEach(function (b) {
      var id = b.dataset.tap;
      if (!(id === "clear" ? pickable.clear : landing[id])) return;
      b.hidden = false;
      b.classList.add("tappable");
      b.addEventListener("click", function () { tap(id); });
      buttons[id] = b;
    });
    tools.hidden = false;

    // a choice made in the list shows on the picture too
    on(form, "change", function (e) {
      var t = e.target && e.target.checked && byId[e.target.value];
      if (!t || (chosen && chosen.id === t.id)) return;
      picked = t.pick.slice();
      chosen = { id: t.id, last: t.on[0] };
      mark();
      say.textContent = word("chosen-list", { step: t.label });
    });
    var pre = form.querySelector('input[name="answer"]:checked');
    if (pre && byId[pre.value]) { picked = byId[pre.value].pick.slice(); chosen = { id: pre.value, last: byId[pre.value].on[0] }; }
    mark();
  }

  /* ---- the draft: tap a card on offer to pick it ------------------------------------------- */
  document.querySelectorAll(".cafe-offer-card.can-pick").forEach(function (li) {
    var buttons = li.querySelectorAll("button.cafe-pick");
    var usable = [];
    buttons.forEach(function (b) { if (radio(b.dataset.pick)) { b.hidden = false; usable.push(b); } });
    if (!usable.length) return;
    var mark = function (id) {
      document.querySelectorAll(".cafe-offer-card.chosen").forEach(function (n) { n.classList.remove("chosen"); });
      document.querySelectorAll("button.cafe-pick").forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.pick === id ? "true" : "false"); });
      if (choose(id)) li.classList.add("chosen");
    };
    usable.forEach(function (b) { b.addEventListener("click", function () { mark(b.dataset.pick); }); });
    var svg = li.querySelector("svg");
    if (svg) svg.addEventListener("click", function () { mark(usable[0].dataset.pick); });
  });
  document.querySelectorAll(".cafe-pass button.cafe-pick").forEach(function (b) {
    if (!radio(b.dataset.pick)) return;
    b.hidden = false;
    b.addEventListener("click", function () { if (choose(b.dataset.pick)) b.setAttribute("aria-pressed", "true"); });
  });

  if (form && (places.length || taps.length || queue.steps.length)) setupQueue(on);
  }

  /* ---- a turn of several steps: each chosen step is queued, the table redrawn as it will be after
     it (the server applies the queue to a copy of the table: nothing is played), and Send plays them
     all at once, or none with the step refused and why. Without script each step is sent alone. -- */
  function chosenWords() {
    var r = form && form.querySelector('input[name="answer"]:checked');
    var lab = r && r.closest("label");
    if (!lab) return "";
    var main = lab.querySelector(".label"), detail = lab.querySelector(".detail");
    var d = detail ? detail.textContent.trim() : "";
    return (main ? main.textContent.trim() : lab.textContent.trim()) + (d ? " (" + d + ")" : "");
  }
  function checked() {
    var r = form.querySelector('input[name="answer"]:checked');
    return r ? r.value : null;
  }
  function field(name) {
    var f = form.querySelector('input[name="' + name + '"]');
    return f ? f.value : "";
  }
  function setupQueue(on) {
    var table = document.querySelector("section.cafe-tbl");
    if (!queue.urls && table && table.dataset.preview) queue.urls = { preview: table.dataset.preview, turn: table.dataset.turn };
    var panel = document.getElementById("cafe-queue");
    if (!queue.urls || !panel) return;
    var send = form.querySelector('button[type="submit"]');
    panel.hidden = false;
    panel.textContent = "";
    // a tap picks a step to queue here, never sends the form at once (static/titles/tap.js)
    form.setAttribute("data-queue", "");
    form.querySelectorAll(".one-tap-hint").forEach(function (n) { n.hidden = true; });
    if (queue.steps.length) {
      var h = document.createElement("h4");
      h.id = "cafe-queue-h";
      h.textContent = word("so-far");
      panel.appendChild(h);
      var ol = document.createElement("ol");
      ol.className = "cafe-queued";
      ol.setAttribute("aria-labelledby", "cafe-queue-h");
      queue.labels.forEach(function (w) { var li = document.createElement("li"); li.textContent = w; ol.appendChild(li); });
      panel.appendChild(ol);
      var hint = document.createElement("p");
      hint.className = "hint";
      hint.textContent = queue.closed || word("so-far-hint");
      panel.appendChild(hint);
    } else {
      var first = document.createElement("p");
      first.className = "hint";
      first.textContent = word("several");
      panel.appendChild(first);
    }
    var row = document.createElement("div");
    row.className = "cafe-tools";
    panel.appendChild(row);
    function button(id, words, act) {
      var b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.className = "button secondary";
      b.textContent = words;
      b.addEventListener("click", act);
      row.appendChild(b);
      return b;
    }
    var add = queue.closed ? null : button("cafe-queue-add", word("queue-it"), function () { push(); });
    if (queue.steps.length) {
      button("cafe-queue-back", word("take-back"), back);
      button("cafe-queue-send", "", function () { form.requestSubmit ? form.requestSubmit() : form.submit(); }).className = "button";
    }
    var say = document.createElement("p");
    say.className = "cafe-say";
    say.id = "cafe-queue-say";
    say.setAttribute("aria-live", "polite");
    panel.appendChild(say);
    if (queue.note) { say.textContent = queue.note; queue.note = ""; }

    function count() {
      var n = queue.steps.length + (checked() && !queue.closed ? 1 : 0);
      if (add) add.disabled = !checked();
      var words = queue.steps.length ? word(n === 1 ? "send-steps-one" : "send-steps", { n: n }) : word("send");
      if (send) send.textContent = words;
      var other = document.getElementById("cafe-queue-send");
      if (other) other.textContent = words;
    }
    on(form, "change", count);
    count();
    if (queue.steps.length) {
      // a choice is no longer required to send: the queue alone may be sent
      form.querySelectorAll('input[name="answer"]').forEach(function (r) { r.required = false; });
    }
    on(form, "submit", function (e) {
      if (!queue.steps.length) return;  // one step: the form as it is, as without script
      e.preventDefault();
      var all = queue.steps.slice();
      var now = checked();
      if (now && !queue.closed) all.push(now);
      var box = form.querySelector('input[name="steps"]') || document.createElement("input");
      box.type = "hidden";
      box.name = "steps";
      box.value = JSON.stringify(all);
      form.appendChild(box);
      form.action = queue.urls.turn;
      if (send) send.disabled = true;
      form.submit();
    });

    function push() {
      var now = checked();
      if (!now) { say.textContent = word("choose-first"); return; }
      var body = new URLSearchParams();
      body.set("csrfmiddlewaretoken", field("csrfmiddlewaretoken"));
      body.set("version", field("version"));
      body.set("prompt_key", field("prompt_key"));
      body.set("steps", JSON.stringify(queue.steps.concat([now])));
      add.disabled = true;
      say.textContent = word("queueing");
      fetch(queue.urls.preview, { method: "POST", body: body, credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.json().catch(function () { return { ok: false, message: word("no-preview", { status: r.status }) }; }); })
        .then(function (answer) { if (answer.ok) queued(answer); else { say.textContent = answer.message; add.disabled = false; } })
        .catch(function () { say.textContent = word("no-answer"); add.disabled = false; });
    }
    function queued(answer) {
      queue.back.push({ table: queue.table, fieldset: queue.fieldset, steps: queue.steps, labels: queue.labels, closed: queue.closed });
      queue.steps = answer.steps.map(function (s) { return s.answer; });
      queue.labels = answer.steps.map(function (s) { return s.label || String(s.answer); });
      var last = queue.labels[queue.labels.length - 1];
      if (answer.table) { queue.table = answer.table; swap(answer.table); }
      var box = document.createElement("div");
      var legend = document.createElement("legend");
      box.appendChild(legend);
      if (answer.prompt) {
        legend.textContent = answer.prompt.text;
        box.insertAdjacentHTML("beforeend", answer.prompt_html);
        queue.closed = "";
        queue.note = word("queued-next", { step: last });
      } else {
        legend.textContent = word("turn-queued");
        queue.closed = answer.note || word("last-step");
        var p = document.createElement("p");
        p.textContent = queue.closed;
        box.appendChild(p);
        queue.note = word("queued", { step: last, then: queue.closed });
      }
      queue.fieldset = box.innerHTML;
      form.querySelector("fieldset").innerHTML = queue.fieldset;
      init();
      focusSay();
    }
    function back() {
      var was = queue.back.pop();
      if (!was) return;
      var taken = queue.labels[queue.labels.length - 1];
      queue.steps = was.steps;
      queue.labels = was.labels;
      queue.closed = was.closed;
      queue.table = was.table;
      queue.fieldset = was.fieldset;
      swap(was.table);
      form.querySelector("fieldset").innerHTML = was.fieldset;
      queue.note = word("taken-back", { step: taken });
      if (!queue.steps.length) {
        form.querySelectorAll('input[name="answer"]').forEach(function (r) { r.required = true; });
        if (send) send.textContent = word("send");
      }
      init();
      focusSay();
    }
  }
  function focusSay() {
    // the panel was drawn again: keep the keyboard in it, and in view
    var say = document.getElementById("cafe-queue-say");
    if (!say) return;
    say.setAttribute("tabindex", "-1");
    say.focus({ preventScroll: true });
    say.scrollIntoView({ block: "nearest" });
  }
  function swap(html) {
    // the table as the server drew it after the queued steps (its scripts are this one: not run again)
    var t = document.createElement("template");
    t.innerHTML = html;
    var fresh = t.content.querySelector("section.cafe-tbl");
    var old = document.querySelector("section.cafe-tbl");
    if (!fresh || !old) return;
    fresh.querySelectorAll("script[src]").forEach(function (n) { n.remove(); });
    var words = old.querySelector("#cafe-words");
    if (words && !fresh.querySelector("#cafe-words")) fresh.appendChild(words);
    if (!fresh.dataset.preview && old.dataset.preview) { fresh.dataset.preview = old.dataset.preview; fresh.dataset.turn = old.dataset.turn; }
    fresh.classList.toggle("previewing", queue.steps.length > 0);
    old.replaceWith(fresh);
  }
})();
