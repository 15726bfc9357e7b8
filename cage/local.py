"""The cage's writers of dates and times are the product's one set, kept in events.local (events
is the lower layer: cage imports events, never the other way), named here as the cage has always
imported them."""

from events.local import clock, day, long_day, moment, weekday, zone_name

__all__ = ["clock", "day", "long_day", "moment", "weekday", "zone_name"]
