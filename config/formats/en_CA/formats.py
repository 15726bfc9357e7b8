"""English (Canada) as the cage writes it: Django's en_CA formats, with the 24-hour clock the
cage's paper sheets and slips have always used ("18:30", not "6:30 p.m."). What is not set here
is Django's own en_CA format. French (fr_CA) is Django's own: "18 h 30", "11 septembre 2026".
"""

TIME_FORMAT = "H:i"  # 18:30
DATETIME_FORMAT = "j M Y, H:i"  # 11 Sep 2026, 18:30
SHORT_DATETIME_FORMAT = "Y-m-d H:i"  # 2026-09-11 18:30
