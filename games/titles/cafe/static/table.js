/* Café seat page: place a plan card by tapping your area, turn it, preview each legal footprint;
   take each action by tapping the area (and its Warehouse, Clear and Stop buttons); highlight the
   squares an action names; tap a card on offer to pick it; say near Send what Send will do. The
   form stays the source of truth: every choice here only ticks one of its radio buttons (value =
   an option id of the prompt), so the server's checks are the same as for the list. */
(function () {
  "use strict";
  var holder = document.getElementById("cafe-data");
  if (!holder) return;
  var data = JSON.parse(holder.textContent);
  var NS = "http://www.w3.org/2000/svg";
  var U = data.unit || 100;
  var form = document.querySelector("form.prompt");

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
    grid.setAttribute("aria-label", "Your business area: choose where the card goes. Arrow keys move, R turns, Enter chooses.");
    grid.setAttribute("aria-describedby", "cafe-say");
    grid.dataset.rot = rot;

    // the long list of placements folds away under the picture (still there, still works)
    var list = form && form.querySelector("ul.options");
    if (list && list.children.length > 6) {
      var det = document.createElement("details");
      det.className = "cafe-list";
      var sum = document.createElement("summary");
      sum.textContent = "Or pick from the list of all " + places.length + " placements";
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
    function none(row, col) {
      var also = otherTurns(row, col);
      var turned = function (r) { return r ? "turned " + r + "°" : "not turned"; };
      return "Row " + row + ", col " + col + ": with the card " + turned(rot) + ", its top-left corner cannot go here" +
        (also.length ? "; " + also.map(turned).join(" or ") + " it can: press Turn." : ". Try another square or Turn.");
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
          ? "Row " + row + ", col " + col + ": " + p.text + (p === chosen ? " (chosen)" : ". Tap or press Enter to choose it.")
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
      say.textContent = "Chosen: " + p.text + ". Press Send below to place it.";
    }
    function turn() {
      rot = rots[(rots.indexOf(rot) + 1) % rots.length];
      grid.dataset.rot = rot;
      drawHand();
      var p = draw(anchor.row, anchor.col, document.activeElement === grid);
      say.textContent = "Card " + (rot ? "turned " + rot + "°" : "not turned") + ". " + (p ? p.text : none(anchor.row, anchor.col));
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
        if (p) { select(p); draw(anchor.row, anchor.col, true); say.textContent = "Chosen: " + p.text + ". Press Send below to place it."; }
      }
    });
    if (turnBtn) turnBtn.addEventListener("click", turn);
    if (form) form.addEventListener("change", function (e) {
      var p = e.target && byId[e.target.value];
      if (p && p !== chosen) select(p);
    });
    drawHand();
    var pre = form && form.querySelector('input[name="answer"]:checked');
    if (pre && byId[pre.value]) select(byId[pre.value]);
  }

  /* ---- words near Send: what the form will post, in the option's own words ------------------ */
  var will = null;
  if (form) {
    var send = form.querySelector('button[type="submit"]');
    will = document.createElement("p");
    will.className = "cafe-will";
    will.id = "cafe-will";
    will.setAttribute("aria-live", "polite");
    if (send) send.parentNode.insertBefore(will, send);
    var sayWill = function () {
      var r = form.querySelector('input[name="answer"]:checked');
      var lab = r && r.closest("label");
      if (!lab) { will.textContent = "Nothing chosen yet."; return; }
      var main = lab.querySelector(".label"), detail = lab.querySelector(".detail");
      var d = detail ? detail.textContent.trim() : "";
      will.textContent = "Send will: " + (main ? main.textContent.trim() : lab.textContent.trim()) + (d ? " (" + d + ")" : "");
    };
    form.addEventListener("change", sayWill);
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
    form.addEventListener("change", function () { light(null); });
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
      if (token === "clear") return "Clear";
      var f = family(token), rest = token.slice(f.length + 1);
      if (f === "roast") return "the cubes on roast square " + cellWords(rest);
      return "the " + rest + " cubes on " + f + " squares";
    }
    function cellWords(id) {
      var m = /^r(-?\d+)c(-?\d+)$/.exec(id);
      return m ? "row " + m[1] + ", col " + m[2] : id;
    }
    var NEXT = {
      dry: "an empty dry square", roast: "an empty roast square", deliver: "a coffee shop",
      store: "the Warehouse button", clear: "a square with cubes (it is cleared for free)"
    };
    var FIRST = {
      dry: "first tap the cubes on bean squares to dry them here",
      roast: "first tap the cubes on dry squares to roast them here",
      deliver: "first tap the roast squares whose cubes you deliver",
      store: "first tap the roast squares whose cubes you store",
      clear: "first press Clear cubes, then tap the square"
    };
    function guide() {
      // what the next tap can do with what is selected now
      if (!picked.length) return "";
      var now = [], more = false;
      taps.forEach(function (t) {
        if (same(t.pick, picked)) { if (now.indexOf(NEXT[t.kind]) < 0) now.push(NEXT[t.kind]); }
        else if (picked.every(function (p) { return t.pick.indexOf(p) >= 0; })) more = true;
      });
      var what = picked.indexOf("clear") >= 0 ? "Clear: " : "Selected " + picked.map(tokenWords).join(" and ") + ". ";
      if (!now.length && !more) return what + "No action uses these together: tap them again to unselect.";
      return what + (now.length ? "Now tap " + now.join(" or ") + (more ? ", or select more cubes" : "") : "Select more cubes") + ".";
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
        say.textContent = "Chosen: " + t.label + ". Press Send to do it.";
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
        say.textContent = guide() || "Nothing selected.";
        return;
      }
      var could = taps.filter(function (t) { return t.on.indexOf(on) >= 0; });
      say.textContent = (on.charAt(0) === "r" ? cellWords(on) + ": " : "") +
        (could.length ? FIRST[could[0].kind] + "." : "nothing to do there now.");
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
      button(g, id, t ? t.textContent : "Coffee shop");
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
    form.addEventListener("change", function (e) {
      var t = e.target && e.target.checked && byId[e.target.value];
      if (!t || (chosen && chosen.id === t.id)) return;
      picked = t.pick.slice();
      chosen = { id: t.id, last: t.on[0] };
      mark();
      say.textContent = "Chosen in the list: " + t.label + ".";
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
})();
