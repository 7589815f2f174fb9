// Filters and the copy button. Plain script, no modules and no fetch, so
// the page works when opened from file://.
(function () {
  "use strict";
  var state = { outcome: "all", operation: "all", kind: "all", text: "" };
  var opSelect = document.getElementById("filter-operation");
  var kindSelect = document.getElementById("filter-kind");
  var textInput = document.getElementById("filter-text");
  var shown = document.getElementById("shown");
  var none = document.getElementById("scenarios-none");

  function matches(el, useOutcome) {
    var d = el.dataset;
    if (useOutcome && state.outcome !== "all" && d.outcome !== state.outcome) return false;
    if (state.operation !== "all" && d.operation !== state.operation) return false;
    if (state.kind !== "all" && d.kind !== state.kind) return false;
    if (state.text && (d.search || "").indexOf(state.text) < 0) return false;
    return true;
  }

  function apply() {
    var total = 0, visible = 0, failures = 0, failuresShown = 0;
    document.querySelectorAll(".filterable").forEach(function (el) {
      var ok = matches(el, true);
      el.hidden = !ok;
      if (el.hasAttribute("data-scenario")) {
        total++;
        if (ok) visible++;
      } else {
        failures++;
        if (ok) failuresShown++;
      }
    });
    var badge = document.getElementById("failures-shown");
    badge.textContent = failuresShown === failures ? String(failures) : failuresShown + " of " + failures;
    var failuresNone = document.getElementById("failures-none");
    if (failuresNone) failuresNone.hidden = failuresShown > 0;
    document.querySelectorAll(".filterable-req").forEach(function (el) {
      el.hidden = !matches(el, false);
    });
    document.querySelectorAll("[data-filter-outcome]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.filterOutcome === state.outcome ? "true" : "false");
    });
    opSelect.value = state.operation;
    kindSelect.value = state.kind;
    shown.textContent = "Showing " + visible + " of " + total + " scenarios";
    shown.dataset.visible = String(visible);
    none.hidden = visible > 0;
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest("[data-filter-outcome], [data-pick-operation], [data-pick-kind], [data-pick-text], [data-copy], #filter-reset");
    if (!t) return;
    if (t.id === "filter-reset") {
      state = { outcome: "all", operation: "all", kind: "all", text: "" };
      textInput.value = "";
      apply();
    } else if (t.dataset.filterOutcome) {
      state.outcome = t.dataset.filterOutcome;
      apply();
    } else if (t.dataset.pickOperation !== undefined || t.dataset.pickKind !== undefined) {
      state.operation = t.dataset.pickOperation === undefined ? "all" : t.dataset.pickOperation;
      state.kind = t.dataset.pickKind || "all";
      if (!Array.prototype.some.call(opSelect.options, function (o) { return o.value === state.operation; })) {
        state.operation = "all";
      }
      state.outcome = "all";
      apply();
      document.getElementById("filters").scrollIntoView({ behavior: "smooth" });
    } else if (t.dataset.pickText !== undefined) {
      state = { outcome: "failed", operation: "all", kind: "all", text: t.dataset.pickText.toLowerCase() };
      textInput.value = t.dataset.pickText;
      apply();
    } else if (t.dataset.copy) {
      copy(t, document.getElementById(t.dataset.copy).textContent);
    }
  });
  opSelect.addEventListener("change", function () { state.operation = opSelect.value; apply(); });
  kindSelect.addEventListener("change", function () { state.kind = kindSelect.value; apply(); });
  textInput.addEventListener("input", function () { state.text = textInput.value.trim().toLowerCase(); apply(); });

  function copy(button, text) {
    function done(ok) {
      button.textContent = ok ? "Copied" : "Select and copy";
      setTimeout(function () { button.textContent = "Copy"; }, 1500);
    }
    function fallback() {
      var ta = document.createElement("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.style.position = "fixed";
      ta.style.opacity = "0";
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
      document.body.removeChild(ta);
      done(ok);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  apply();
})();
