// The cage home's keyboard shortcuts, as its "Keyboard" help lists them (templates/cage/_keyboard.html):
// one key, pressed while no box to type in has focus, opens a new slip's form or goes to "Find a slip".
// Each shortcut is an element of the help with data-key and either data-href (go there) or
// data-focus (the id of the box to type in); a key not listed does nothing. The keys are those of
// the reader's language (cage.shortcuts: V for vente in French, S for sale in English), read here
// from the help as printed, so the keys that work are the keys the help shows.
(function () {
  "use strict";
  var help = document.getElementById("keyboard-help");
  if (!help) { return; }
  var shortcuts = {};
  help.querySelectorAll("[data-key]").forEach(function (el) { shortcuts[el.dataset.key] = el; });
  function typing(target) {
    if (!target || !target.tagName) { return false; }
    return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) { return; }
    if (typing(event.target)) { return; }
    var shortcut = shortcuts[event.key.toLowerCase()];
    if (!shortcut) { return; }
    event.preventDefault();
    if (shortcut.dataset.href) {
      window.location.assign(shortcut.dataset.href);
    } else if (shortcut.dataset.focus) {
      var box = document.getElementById(shortcut.dataset.focus);
      if (box) { box.focus(); box.select && box.select(); }
    }
  });
}());
