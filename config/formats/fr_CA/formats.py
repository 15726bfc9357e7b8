"""Canadian French times as Django means them ("18 h 05"). Django 5.2's own fr_CA formats leave
the "h" unescaped, so it reads as the hour on a 12-hour clock ("18 06 05"): escaped here. What is
not set here is Django's own fr_CA format ("11 septembre 2026", "2026-09-11")."""

TIME_FORMAT = "H\xa0\\h\xa0i"  # 18 h 05
DATETIME_FORMAT = "j F Y, H\xa0\\h\xa0i"  # 11 septembre 2026, 18 h 05
SHORT_DATETIME_FORMAT = "Y-m-d H\xa0\\h\xa0i"  # 2026-09-11 18 h 05
