"""French (Canada): Django's fr_CA formats, with the "h" of "14 h 30" escaped. Django 5.2's own
fr_CA TIME_FORMAT is "H\xa0h\xa0i", whose bare "h" is the 12-hour hour: 14:30 came out "14 02 30".
"""

TIME_FORMAT = "H\xa0\\h\xa0i"
DATETIME_FORMAT = "j F Y, H\xa0\\h\xa0i"
SHORT_DATETIME_FORMAT = "Y-m-d H\xa0\\h\xa0i"
