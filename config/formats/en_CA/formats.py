"""English (Canada) as the product writes it: Django's en_CA formats, but times on the 24-hour
clock the cage's slips and sheets have always used ("19:05", not "7:05 p.m."). Only what differs
is here; everything else is Django's own en_CA. French keeps Django's fr_CA ("19 h 05")."""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
