"""Canadian French as the cage writes it. A date is written one way everywhere a person reads it, as
in English: all-numeric, year first ("2026-09-11"), the Canadian standard for dates
(CAN/CSA-Z234.4), already Django's short fr_CA date. Times as Django means them ("18 h 05",
"1 h 00"): Django 5.2's own fr_CA formats leave the "h" unescaped, so it reads as the hour on a
12-hour clock ("18 06 05"): escaped here. The hour takes no leading zero, as French writes it
("1 h 00", not "01 h 00")."""

DATE_FORMAT = "Y-m-d"  # 2026-09-11
SHORT_DATE_FORMAT = "Y-m-d"  # 2026-09-11
TIME_FORMAT = "G\xa0\\h\xa0i"  # 18 h 05, 1 h 00
DATETIME_FORMAT = "Y-m-d G\xa0\\h\xa0i"  # 2026-09-11 18 h 05
SHORT_DATETIME_FORMAT = "Y-m-d G\xa0\\h\xa0i"  # 2026-09-11 18 h 05
