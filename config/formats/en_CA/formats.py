"""English (Canada) as the cage writes it. A date is written one way everywhere a person reads it,
in titles and sentences as in tables, slips and sheets: all-numeric, year first ("2026-09-11"), the
Canadian standard for dates (CAN/CSA-Z234.4), which English and French write alike and no reader
takes for a month first. The clock is the 24-hour one the cage's paper sheets and slips have always
used ("18:30", not "6:30 p.m."). What is not set here is Django's own en_CA format.
"""

DATE_FORMAT = "Y-m-d"  # 2026-09-11
SHORT_DATE_FORMAT = "Y-m-d"  # 2026-09-11
TIME_FORMAT = "H:i"  # 18:30
DATETIME_FORMAT = "Y-m-d H:i"  # 2026-09-11 18:30
SHORT_DATETIME_FORMAT = "Y-m-d H:i"  # 2026-09-11 18:30
