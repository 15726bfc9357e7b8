"""The audit trail as people read it: its pages, its table and CSV, and the reading that names
what an entry kept (the slips by their number, the places and instruments by their names, dates
in words) in the reader's language. It sits above the cage with the reports, since it names the
cage's slips and places; the trail's writer (audit) knows neither."""
