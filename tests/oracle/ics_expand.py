#!/usr/bin/env python3
"""Expands an iCalendar feed with an independent implementation (icalendar +
recurring_ical_events): reads the feed on stdin, prints {uid: [UTC instants]} for the events
between START and END (RFC 3339); to-dos (VTODO) too, at their DTSTART or else DUE. Used by
tests/api/calendar.rs and tests/api/tools.rs."""
import json
import sys
from datetime import datetime, timezone

import icalendar
import recurring_ical_events

start = datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00"))
end = datetime.fromisoformat(sys.argv[2].replace("Z", "+00:00"))
calendar = icalendar.Calendar.from_ical(sys.stdin.read())
out = {}
for event in recurring_ical_events.of(calendar, components=["VEVENT", "VTODO"]).between(start, end):
    when = event.get("DTSTART") or event.get("DUE")
    if not isinstance(when.dt, datetime):
        continue  # a date alone: Hibiki rings it at the person's morning time
    at = when.dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    out.setdefault(str(event["UID"]), []).append(at)
print(json.dumps({uid: sorted(v) for uid, v in out.items()}))
