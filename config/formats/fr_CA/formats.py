"""Canadian French as Django writes it (fr_CA), with the hour's "h" escaped: Django 5.2's fr_CA
formats write "H\xa0h\xa0i", and an unescaped "h" is the 12-hour clock's hour, so 19:05 came out
"19 07 05" instead of "19 h 05". No-break spaces, as the OQLF writes the time."""

TIME_FORMAT = "H\xa0\\h\xa0i"  # 19 h 05
DATETIME_FORMAT = "j F Y, H\xa0\\h\xa0i"  # 11 septembre 2026, 19 h 05
SHORT_DATETIME_FORMAT = "Y-m-d H\xa0\\h\xa0i"  # 2026-09-11 19 h 05
