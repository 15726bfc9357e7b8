/* The cage home: typing in "Find a slip" narrows the slips shown to the rows that mention it, as it
   is typed. The form itself searches every slip of the day on the server (Enter or "Find"); this is
   only the quick look at the rows already on the page. */
(function () {
  // Narrow the rows shown to those that mention what is typed.
  var input = document.getElementById("slip-filter");
  if (!input) return;
  input.addEventListener("input", function () {
    var wanted = input.value.trim().toLowerCase();
    document.querySelectorAll("#slips tbody tr").forEach(function (row) {
      row.hidden = wanted !== "" && row.textContent.toLowerCase().indexOf(wanted) === -1;
    });
  });
})();
