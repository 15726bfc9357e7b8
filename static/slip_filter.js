/* The cage home: typing in "Find a slip" narrows the slips shown to the rows that mention it, as it
   is typed. The form itself searches every slip of the day on the server (Enter or "Find"); this is
   only the quick look at the rows already on the page. */
(function () {
  // Narrow the rows shown to those that mention what is typed, or were signed by someone of that
  // name (data-signers: the server's search finds them too).
  var input = document.getElementById("slip-filter");
  if (!input) return;
  // Any run of spaces read as one plain space: French prints "200,00 $" with a no-break space,
  // which no cashier types.
  function plain(text) { return text.replace(/\s+/g, " ").toLowerCase(); }
  input.addEventListener("input", function () {
    var wanted = plain(input.value.trim());
    document.querySelectorAll("#slips tbody tr").forEach(function (row) {
      var text = plain(row.textContent + " " + (row.dataset.signers || ""));
      row.hidden = wanted !== "" && text.indexOf(wanted) === -1;
    });
  });
})();
