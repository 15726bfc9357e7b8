"""English (Canada) as the cage writes it: Django's en_CA formats, with the 24-hour clock that
the cage's slips and sheets have always used ("14:30", never "2:30 p.m." or "noon"). French
(Canada) keeps Django's own fr_CA formats ("14 h 30"). Dates stay ISO ("2026-09-11") in both.
"""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
