/* Café seat page: place a plan card by tapping your area, turn it, preview each legal footprint;
   highlight the squares an action names; tap a card on offer to pick it. The form below stays the
   source of truth: every choice here only ticks one of its radio buttons (value = the option id). */
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
      // the placement anchored here in the current turn, else one of this turn that covers the square
      var p = byAnchor[row + "," + col + "," + rot];
      if (p) return p;
      var best = null, bestD = 1e9;
      places.forEach(function (q) {
        if (q.rot !== rot) return;
        for (var i = 0; i < q.cells.length; i++) {
          if (q.cells[i].row === row && q.cells[i].col === col) {
            var d = Math.abs(q.row - row) + Math.abs(q.col - col);
            if (d < bestD) { bestD = d; best = q; }
          }
        }
      });
      return best;
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
          : "Row " + row + ", col " + col + ": no legal placement here in this turn. Try another square or Turn.";
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
      say.textContent = "Card " + (rot ? "turned " + rot + "°" : "not turned") + ". " + (p ? p.text : "No placement at row " + anchor.row + ", col " + anchor.col + " in this turn.");
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
})();
