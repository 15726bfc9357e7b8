/* Refresh a page's live panels in place (the cage home's, the DRIC's queue). Only the innerHTML of each [data-panel]
   element is replaced, so whatever someone is typing elsewhere on the page (and where the
   cursor is) stays exactly as it was. The refresh URL carries ?panel=1: the server does not count
   a refresh as activity, so an unattended screen still locks when idle (events/idle.py). */
(function () {
  var root = document.getElementById("live-panels");
  var seconds = root ? parseFloat(root.dataset.refreshSeconds) : 0;
  if (!(seconds > 0) || !window.fetch || !window.DOMParser) return;
  var status = document.getElementById("refresh-status");
  var busy = false;
  function bare(element) {
    var copy = element.cloneNode(true);
    copy.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) { input.removeAttribute("value"); });
    return copy.innerHTML;
  }
  // Boxes ticked to act on several rows at once (the DRIC's queue: data-keep) stay ticked across
  // a swap, found again by id; a row gone meanwhile (signed by someone else) goes with its tick.
  function swap(panel, next) {
    var ticked = Array.prototype.map.call(panel.querySelectorAll("input[data-keep]:checked"), function (box) { return box.id; });
    panel.innerHTML = next.innerHTML;
    ticked.forEach(function (id) { var box = document.getElementById(id); if (box && panel.contains(box)) box.checked = true; });
  }
  function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(root.dataset.refreshUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        // Locked or logged out (401: idle too long; a redirect: the session ended): the page
        // reloads and so goes to the lock page or the login itself, so an unattended screen does
        // not keep showing the figures.
        if (response.status === 401 || response.redirected) { window.location.reload(); throw new Error("logged out"); }
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var panels = root.querySelectorAll("[data-panel]");
        var swapped = 0;
        panels.forEach(function (panel) {
          var next = fresh.querySelector('[data-panel="' + panel.dataset.panel + '"]');
          // A panel someone is working in (typing a void's reason, an open form) waits for the next tick.
          if (panel.contains(document.activeElement) || panel.querySelector("details[open]")) { swapped += 1; return; }
          // Unchanged (but for its forms' CSRF tokens, new on every answer): left as it is, so a
          // panel read out when it changes (aria-live, My slips' notices) is not read again each tick.
          if (next) { if (bare(panel) !== bare(next)) swap(panel, next); swapped += 1; }
        });
        if (swapped !== panels.length) throw new Error("panels missing");
        status.textContent = "";
      })
      .catch(function () { status.textContent = root.dataset.refreshFailed; })
      .then(function () { busy = false; });
  }
  setInterval(refresh, seconds * 1000);
  // Back on a tab that was hidden: show current figures at once rather than at the next tick.
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
})();
