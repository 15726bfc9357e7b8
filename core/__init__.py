"""The bottom layer, which every app may use and which imports none of them: money in cents and
how it is written and read (core.money), dates and times as people read them (core.local), and
the one exception a refusal raises, with the rule it cites (core.rules), and the client's address
as the audit trail and the lockout read it (core.client); and the port through which `events`
writes the audit trail, whose writer lies above it (core.trail)."""
