/* The cage home: typing in "Find a slip" narrows the day's slips to the rows that mention it. */
(function () {
  // Narrow the day's slips to those whose row mentions what is typed.
  var input = document.getElementById("slip-filter");
  if (!input) return;
  input.addEventListener("input", function () {
    var wanted = input.value.trim().toLowerCase();
    document.querySelectorAll("#slips tbody tr").forEach(function (row) {
      row.hidden = wanted !== "" && row.textContent.toLowerCase().indexOf(wanted) === -1;
    });
  });
})();
