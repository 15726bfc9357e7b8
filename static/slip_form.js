/* Live totals as the cashier counts: each chip or bill line's value, the chips' total, and for a
   sale or redemption the cash at face value (T&C 3.6), filled only until the cashier types a cash
   amount herself: a form the server refused (data-bound) shows exactly what was typed, and a second
   Record sends exactly that; its cash follows the chips again only if it was sent empty and a count
   is changed. A count that is not a whole number of digits ("2O", "1.5") shows as not a count,
   never as a number, and fills in no cash; the empty cash then does not stop the form (the browser
   would ask for the cash first): the server refuses the count by name. The server checks
   everything again; this only saves arithmetic at the window. Once submitted, the button is
   disabled so a double click sends one slip (the form's one-time key refuses a second anyway). */
document.querySelectorAll("form[data-slip-form]").forEach(function (form) {
  var lang = (document.documentElement.lang || "en").toLowerCase().indexOf("fr") === 0 ? "fr-CA" : "en-CA";
  var money = new Intl.NumberFormat(lang, { style: "currency", currency: "CAD" });
  var notACount = form.dataset.notACount || "?";
  // A count as the server reads it (cage.fields.CountField): digits only, spaces around allowed;
  // empty is 0; anything else is null, not a count.
  function count(input) {
    var text = (input.value || "").trim();
    if (!text) return 0;
    return /^[0-9]{1,12}$/.test(text) ? parseInt(text, 10) : null;
  }
  function update() {
    var cents = 0, chips = 0, cash = 0, invalid = false;
    form.querySelectorAll("input[data-cents]").forEach(function (input) {
      var n = count(input);
      var cell = form.querySelector('.line-total[data-for="' + input.id + '"]');
      if (n === null) {
        invalid = true;
        input.setAttribute("aria-invalid", "true");
        input.classList.add("invalid");
        if (cell) { cell.textContent = notACount; cell.classList.add("fails"); }
        return;
      }
      input.removeAttribute("aria-invalid");
      input.classList.remove("invalid");
      var line = n * parseInt(input.dataset.cents, 10);
      if (cell) { cell.textContent = money.format(line / 100); cell.classList.remove("fails"); }
      // By name, not by place: a locked count's figures are hidden inputs outside the tables.
      if (input.name.indexOf("cash_") === 0) { cash += line; } else { cents += line; chips += n; }
    });
    var total = form.querySelector("#chips-total");
    if (total) {
      total.textContent = invalid ? notACount : money.format(cents / 100);
      total.classList.toggle("fails", invalid);
      form.querySelector("#chips-count-total").textContent = invalid ? "—" : chips;
    }
    var cashTotal = form.querySelector("#cash-total");
    if (cashTotal) cashTotal.textContent = invalid ? notACount : money.format(cash / 100);
    // The count's own refusal comes first (cage.forms.SlipForm.cash_waits_for_the_chips), never the
    // browser's "Please fill out this field" on the cash that waits for it.
    if (cashRequired) cashInput.required = !invalid;
    // Chips change hands at face value: the cash follows the chips until the cashier types it.
    if (followsChips) {
      // Written as the cashier writes it: "12,50" in French, "12.50" in English; nothing while a
      // count is not a count, so that no figure stands for what was mistyped.
      var filled = lang === "fr-CA" ? (cents / 100).toFixed(2).replace(".", ",") : (cents / 100).toFixed(2);
      cashInput.value = invalid || !cents ? "" : filled;
    }
  }
  var cashInput = form.querySelector("input[name=cash]");
  var faceValue = !!cashInput && form.dataset.faceValue === "yes";
  var cashRequired = !!cashInput && cashInput.required;
  var followsChips = faceValue && form.dataset.bound !== "yes";
  form.addEventListener("input", function (event) {
    if (event.target === cashInput) followsChips = false;
    else if (faceValue && event.target.matches("input[data-cents]") && !cashInput.value) followsChips = true;
    update();
  });
  update();
  window.addEventListener("pageshow", update);
  var submit = form.querySelector("button[type=submit]");
  var key = form.querySelector("input[name=request_key]");
  form.addEventListener("submit", function () {
    submit.disabled = true;
    // This page's history entry remembers the form's one-time key: come back to it with Back, and
    // the page asks the server whether it has recorded a slip (below).
    if (key && window.history.replaceState) {
      window.history.replaceState(Object.assign({}, window.history.state, { slipFormKey: key.value }), "");
    }
  });
  // Back to this page from the browser's cache: the button works again (a resent form is still
  // recognised by its one-time key and records nothing twice).
  window.addEventListener("pageshow", function () { submit.disabled = false; });
  // Back to a form that was sent: the page is shown again fresh (pages are not kept), so it asks
  // the server about the form that was sent, which says whether it recorded a slip, and which.
  window.addEventListener("pageshow", function () {
    var sent = window.history.state && window.history.state.slipFormKey;
    var params = new URLSearchParams(window.location.search);
    if (!sent || params.get("key") === sent) return;
    params.set("key", sent);
    window.location.replace(window.location.pathname + "?" + params.toString());
  });
  // Your own signature needs no PIN: its box shows only for someone else. The cell stays, empty,
  // so the table's rows keep their borders (a hidden cell left them ragged). The runner chosen above
  // signs the row that is theirs (carried by, received by…): their name shows there as chosen.
  var runner = form.querySelector("select[name=runner]");
  function togglePins() {
    form.querySelectorAll("select[name^=sign_]").forEach(function (select) {
      var pin = form.querySelector("input[name=pin_" + select.name.slice(5) + "]");
      if (pin) pin.closest("td").classList.toggle("no-pin", !select.value || select.value === form.dataset.self);
    });
    form.querySelectorAll("tr[data-runner-signs]").forEach(function (row) {
      var named = row.querySelector(".runner-named"), atCage = row.querySelector(".at-cage");
      var chosen = runner && runner.value ? runner.options[runner.selectedIndex].text : "";
      if (named) named.textContent = chosen || named.dataset.none;
      // A sale with no runner is sold at the cage by whoever is chosen here.
      if (atCage) atCage.hidden = !!chosen;
      var pin = row.querySelector("input[name^=pin_]");
      if (!pin) return;
      var select = atCage && atCage.querySelector("select");
      var who = chosen ? runner.value : select ? select.value : "";
      pin.closest("td").classList.toggle("no-pin", !who || who === form.dataset.self);
    });
  }
  form.addEventListener("change", function (event) {
    if (event.target.name && (event.target.name.indexOf("sign_") === 0 || event.target.name === "runner")) togglePins();
  });
  togglePins();
  // Back to this page: the browser puts back what was chosen after this script ran.
  window.addEventListener("pageshow", togglePins);
  // A count's place, or the place a shift handover passes on: each counted in what it holds.
  var account = form.querySelector("select[name=account], select[name=place]");
  function showCounted() {
    if (!account) return;
    var chips = form.querySelector("#chip-counts"), bills = form.querySelector("#cash-counts");
    if (chips) chips.hidden = account.value === "bank_cash";
    if (bills) bills.hidden = account.value === "chip_bank" || account.value === "tip_pool";
  }
  if (account) { account.addEventListener("change", showCounted); showCounted(); }
  // A shift handover passes its place between two cashiers of its own position (cage.forms
  // HolderSelect): each list of who signs offers only those whose position holds the place chosen,
  // and one chosen for the other place is unchosen.
  var handed = form.querySelector("select[name=place]");
  function offerHolders() {
    if (!handed) return;
    form.querySelectorAll("select[name^=sign_] option[data-place]").forEach(function (option) {
      var other = option.dataset.place !== handed.value;
      if (other && option.selected) option.parentNode.value = "";
      option.hidden = other;
      option.disabled = other;
    });
    togglePins();
  }
  if (handed) {
    handed.addEventListener("change", offerHolders);
    offerHolders();
    window.addEventListener("pageshow", offerHolders);
  }
  var table = form.querySelector("select[name=table]");
  // A closer starts from the table's last count: choosing the table fetches it. An opener is
  // counted blind and never reloads with figures; a refused form is never reloaded (it would lose
  // what was typed: its typed figures are its default values).
  if (table && form.dataset.prefill === "yes" && form.dataset.bound !== "yes") table.addEventListener("change", function () {
    var typed = Array.prototype.some.call(form.querySelectorAll("input[data-cents]"), function (i) { return i.value && i.value !== i.defaultValue; });
    if (!typed && table.value) window.location.search = "?table=" + encodeURIComponent(table.value);
  });
  // The slip to void, shown in full: choosing another slip hides it, and the button records nothing
  // until the new choice is shown (the server shows it on the next send).
  var target = form.querySelector("select[name=target]"), preview = document.getElementById("void-preview");
  if (target && preview) target.addEventListener("change", function () {
    preview.hidden = true;
    if (submit.dataset.check) submit.textContent = submit.dataset.check;
  });
});
