/* Live totals as the cashier counts: each chip or bill line's value, the chips' total, and for a
   sale or redemption the cash at face value (T&C 3.6), filled only on a fresh form and only until
   the cashier types a cash amount herself: a form the server refused (data-bound) shows exactly
   what was typed, and a second Record sends exactly that. The server checks everything again; this
   only saves arithmetic at the window. Once submitted, the button is disabled so a double click
   sends one slip (the form's one-time key refuses a second anyway). */
document.querySelectorAll("form[data-slip-form]").forEach(function (form) {
  var lang = (document.documentElement.lang || "en").toLowerCase().indexOf("fr") === 0 ? "fr-CA" : "en-CA";
  var money = new Intl.NumberFormat(lang, { style: "currency", currency: "CAD" });
  function count(input) { var n = parseInt((input.value || "").trim(), 10); return isNaN(n) || n < 0 ? 0 : n; }
  function update() {
    var cents = 0, chips = 0, cash = 0;
    form.querySelectorAll("input[data-cents]").forEach(function (input) {
      var line = count(input) * parseInt(input.dataset.cents, 10);
      var cell = form.querySelector('.line-total[data-for="' + input.id + '"]');
      if (cell) cell.textContent = money.format(line / 100);
      // By name, not by place: a locked count's figures are hidden inputs outside the tables.
      if (input.name.indexOf("cash_") === 0) { cash += line; } else { cents += line; chips += count(input); }
    });
    var total = form.querySelector("#chips-total");
    if (total) { total.textContent = money.format(cents / 100); form.querySelector("#chips-count-total").textContent = chips; }
    var cashTotal = form.querySelector("#cash-total");
    if (cashTotal) cashTotal.textContent = money.format(cash / 100);
    var cashInput = form.querySelector("input[name=cash]");
    // Chips change hands at face value: the cash follows the chips until the cashier types it.
    if (cashInput && form.dataset.faceValue === "yes" && form.dataset.bound !== "yes" && cents && !cashInput.dataset.typed) {
      // Written as the cashier writes it: "12,50" in French, "12.50" in English.
      cashInput.value = lang === "fr-CA" ? (cents / 100).toFixed(2).replace(".", ",") : (cents / 100).toFixed(2);
    }
  }
  var typedCash = form.querySelector("input[name=cash]");
  if (typedCash) typedCash.addEventListener("input", function () { typedCash.dataset.typed = "yes"; });
  form.addEventListener("input", update);
  update();
  window.addEventListener("pageshow", update);
  var submit = form.querySelector("button[type=submit]");
  form.addEventListener("submit", function () { submit.disabled = true; });
  // Back to this page from the browser's cache: the button works again (a resent form is still
  // recognised by its one-time key and records nothing twice).
  window.addEventListener("pageshow", function () { submit.disabled = false; });
  // Your own signature needs no PIN: its box shows only for someone else.
  function togglePins() {
    form.querySelectorAll("select[name^=sign_]").forEach(function (select) {
      var pin = form.querySelector("input[name=pin_" + select.name.slice(5) + "]");
      if (pin) pin.closest("td").hidden = !select.value || select.value === form.dataset.self;
    });
  }
  form.addEventListener("change", function (event) { if (event.target.name && event.target.name.indexOf("sign_") === 0) togglePins(); });
  togglePins();
  // Back to this page: the browser puts back what was chosen after this script ran.
  window.addEventListener("pageshow", togglePins);
  var account = form.querySelector("select[name=account]");
  function showCounted() {
    if (!account) return;
    var chips = form.querySelector("#chip-counts"), bills = form.querySelector("#cash-counts");
    if (chips) chips.hidden = account.value === "bank_cash";
    if (bills) bills.hidden = account.value === "chip_bank" || account.value === "tip_pool";
  }
  if (account) { account.addEventListener("change", showCounted); showCounted(); }
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
