/* The new-game form's clock presets: choosing one fills the clock fields with its values (the same the
   server sets when the preset is posted without script), and changing a field by hand turns the menu back to
   "My own settings", so what is sent is what the fields show. */
(function () {
  "use strict";
  var menu = document.getElementById("id_clock_preset");
  var data = document.getElementById("clock-presets");
  if (!menu || !data) return;
  var presets = JSON.parse(data.textContent);
  var names = {};
  Object.keys(presets).forEach(function (slug) {
    Object.keys(presets[slug]).forEach(function (name) { names[name] = true; });
  });
  function field(name) { return menu.form.elements.namedItem(name); }
  menu.addEventListener("change", function () {
    var values = presets[menu.value];
    if (!values) return;
    Object.keys(values).forEach(function (name) {
      var el = field(name);
      if (!el) return;
      if (el.type === "checkbox") el.checked = values[name] === "True";
      else el.value = values[name];
    });
  });
  Object.keys(names).forEach(function (name) {
    var el = field(name);
    if (!el) return;
    ["input", "change"].forEach(function (kind) {
      el.addEventListener(kind, function () { if (menu.value) menu.value = ""; });
    });
  });
})();
