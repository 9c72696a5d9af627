(function () {
  "use strict";
  // Sorting: a click on a header sorts the rows by that column's data-v values.
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.querySelectorAll("thead th");
    heads.forEach(function (th, col) {
      if (!th.dataset.sort) return;
      th.addEventListener("click", function () {
        var asc = !th.classList.contains("asc");
        heads.forEach(function (h) { h.classList.remove("asc", "desc"); });
        th.classList.add(asc ? "asc" : "desc");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var key = function (row) {
          var cell = row.cells[col];
          var v = cell ? (cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent) : "";
          return th.dataset.sort === "num" ? parseFloat(v) : v.toLowerCase();
        };
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          var c = x < y ? -1 : x > y ? 1 : 0;
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  // Filtering: files whose verdicts include the chosen one (or all).
  var buttons = document.querySelectorAll(".filters button");
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      buttons.forEach(function (o) { o.classList.toggle("on", o === b); });
      var want = b.dataset.filter;
      document.querySelectorAll("#files tr.file-row").forEach(function (row) {
        var tags = row.dataset.verdicts.split(" ");
        row.classList.toggle("hidden", want !== "all" && tags.indexOf(want) < 0);
      });
    });
  });
  // Invariants: a click on a line that has some pins them in the panel.
  var panel = document.getElementById("inv-panel");
  var selected = null;
  function show(line) {
    if (selected) selected.classList.remove("selected");
    selected = line;
    line.classList.add("selected");
    var ln = line.querySelector(".ln").textContent;
    var file = line.closest("section.file").querySelector("h2 .file-name").textContent;
    panel.querySelector("h3").textContent = "COARSEN's invariants at line " + ln + " of " + file;
    panel.querySelector("pre").textContent = line.getAttribute("title");
    panel.hidden = false;
  }
  document.querySelectorAll(".line.has-inv").forEach(function (line) {
    line.addEventListener("click", function () { show(line); });
    line.addEventListener("keydown", function (e) { if (e.key === "Enter") show(line); });
  });
  // A link to a line (#f0-L12) shows its invariants too.
  function follow() {
    var id = decodeURIComponent(location.hash.slice(1));
    var line = id ? document.getElementById(id) : null;
    if (line && line.classList.contains("has-inv")) show(line);
  }
  window.addEventListener("hashchange", follow);
  follow();
  panel.querySelector(".close").addEventListener("click", function () {
    panel.hidden = true;
    if (selected) selected.classList.remove("selected");
    selected = null;
  });
  // A long source opens at its first assertion rather than at its typedefs.
  document.querySelectorAll(".src").forEach(function (src) {
    var first = src.querySelector(".line.has-assert");
    // The container is positioned, so a line's offsetTop is measured from its top.
    if (first && first.offsetTop > src.clientHeight) {
      src.scrollTop = first.offsetTop - 60;
    }
  });
  document.body.dataset.jsReady = "1";
})();
