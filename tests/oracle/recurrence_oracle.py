#!/usr/bin/env python3
"""An independent oracle for Hibiki's recurrence engine.

Draws random schedules (every kind, intervals, monthly days and nth weekdays, yearly, until,
count, skip, Japanese holidays) in many zones and years, expands them with python-dateutil's
rrule (RFC 5545), zoneinfo and the `holidays` package, and prints one JSON line per case:
{tz, send_at, recurrence, from, expect: [UTC instants]}. The Rust test
(common/tests/recurrence_oracle.rs) computes the same with the engine and compares.

Hibiki's rules, as decisions.md states them, mapped onto RFC 5545:
- a local time that a DST gap skips moves forward by the gap, a repeated one takes the
  earlier instant: zoneinfo's fold=0 does both;
- a monthly day the month lacks is its last day: BYMONTHDAY=28..d with BYSETPOS=-1;
  29 February in other years is the 28th the same way;
- weeks start on Monday (WKST=MO); until is a local date, inclusive; count and until count
  the rule's dates before skips and holiday moves;
- hourly counts elapsed hours (an rrule in UTC); for hourly, a business-day move acts as skip;
- holidays come from the `holidays` package within the years Hibiki's shipped table covers.

Usage: recurrence_oracle.py SEED CASES COVERED_FIRST COVERED_LAST
"""
import json
import random
import sys
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import holidays
from dateutil import rrule

ZONES = [
    "America/New_York", "Europe/London", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Tokyo",
    "Pacific/Apia", "America/Santiago", "Europe/Dublin", "Asia/Kathmandu", "Pacific/Chatham",
    "America/St_Johns", "America/Sao_Paulo", "Asia/Tehran", "UTC",
]
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
RR_DAYS = [rrule.MO, rrule.TU, rrule.WE, rrule.TH, rrule.FR, rrule.SA, rrule.SU]
MAX_MOVE = 16


def iso(ts):
    return ts.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Holidays:
    def __init__(self, first, last):
        self.first, self.last = first, last
        self.jp = holidays.Japan(years=range(first.year, last.year + 1))

    def is_holiday(self, d):
        return self.first <= d <= self.last and d in self.jp

    def business(self, d):
        return d.weekday() < 5 and not self.is_holiday(d)

    def move(self, d, step):
        for _ in range(MAX_MOVE + 1):
            if self.business(d):
                return d
            d += timedelta(days=step)
        return None


def month_days(day):
    """BYMONTHDAY/BYSETPOS for a day clamped to the month's length."""
    if day == -1:
        return {"bymonthday": -1}
    if day <= 28:
        return {"bymonthday": day}
    return {"bymonthday": list(range(28, day + 1)), "bysetpos": -1}


def random_rule(rng, holiday_years):
    kind = rng.choice(["hourly", "daily", "weekly", "weekdays", "custom", "monthly", "monthly_nth", "yearly"])
    if kind == "hourly":
        rule = {"kind": "hourly", "interval_hours": rng.randint(1, 24)}
    elif kind == "daily":
        rule = {"kind": "daily", "interval": rng.choice([1, 1, 2, 3, 10, 365])}
    elif kind == "weekly":
        rule = {"kind": "weekly", "interval": rng.choice([1, 1, 2, 4, 52])}
    elif kind == "weekdays":
        rule = {"kind": "weekdays"}
    elif kind == "custom":
        rule = {"kind": "custom", "days": sorted(rng.sample(DAYS, rng.randint(1, 7)), key=DAYS.index), "interval": rng.choice([1, 2, 3])}
    elif kind == "monthly":
        rule = {"kind": "monthly", "interval": rng.choice([1, 1, 2, 3, 6, 12])}
        if rng.random() < 0.6:
            rule["day"] = rng.choice([1, 15, 28, 29, 30, 31, -1, rng.randint(1, 31)])
    elif kind == "monthly_nth":
        rule = {"kind": "monthly", "interval": rng.choice([1, 2, 3]), "week": rng.choice([1, 2, 3, 4, 5, -1]), "weekday": rng.choice(DAYS)}
    else:
        rule = {"kind": "yearly", "interval": rng.choice([1, 1, 2, 4, 10])}
    if rule.get("interval") == 1:
        del rule["interval"]
    end = rng.random()
    if end < 0.25:
        rule["count"] = rng.randint(1, 40)
    elif end < 0.45:
        rule["until"] = "later"  # filled in with the send_at
    if rng.random() < 0.3:
        rule["skip"] = "some"
    if holiday_years and rng.random() < 0.6:
        rule["holidays"] = rng.choice(["skip", "next_business_day", "previous_business_day"])
    return rule


def expand(tz_name, send_at, rule, frm, n, hol):
    tz = ZoneInfo(tz_name)
    anchor = send_at.astimezone(tz)
    naive = anchor.replace(tzinfo=None)
    kind = rule["kind"]
    interval = rule.get("interval", 1)
    until = date.fromisoformat(rule["until"]) if "until" in rule else None
    skip = {date.fromisoformat(s) for s in rule.get("skip", [])}
    hrule = rule.get("holidays", "ignore")
    kw = {"count": rule.get("count"), "wkst": rrule.MO, "cache": False}

    if kind == "hourly":
        start = send_at.astimezone(timezone.utc).replace(tzinfo=None)
        gen = rrule.rrule(rrule.HOURLY, dtstart=start, interval=rule["interval_hours"], **kw)
        if hrule != "ignore":
            hrule = "skip"

        def instants():
            for dt in gen:
                at = dt.replace(tzinfo=timezone.utc)
                yield at, at.astimezone(tz).date(), None
    else:
        if kind == "daily":
            gen = rrule.rrule(rrule.DAILY, dtstart=naive, interval=interval, **kw)
        elif kind == "weekly":
            gen = rrule.rrule(rrule.WEEKLY, dtstart=naive, interval=interval, **kw)
        elif kind == "weekdays":
            gen = rrule.rrule(rrule.WEEKLY, dtstart=naive, byweekday=RR_DAYS[:5], **kw)
        elif kind == "custom":
            gen = rrule.rrule(rrule.WEEKLY, dtstart=naive, interval=interval, byweekday=[RR_DAYS[DAYS.index(d)] for d in rule["days"]], **kw)
        elif kind == "monthly" and "week" in rule:
            wd = RR_DAYS[DAYS.index(rule["weekday"])]
            gen = rrule.rrule(rrule.MONTHLY, dtstart=naive, interval=interval, byweekday=wd(rule["week"]), **kw)
        elif kind == "monthly":
            gen = rrule.rrule(rrule.MONTHLY, dtstart=naive, interval=interval, **month_days(rule.get("day", naive.day)), **kw)
        else:
            days = month_days(29) if (naive.month, naive.day) == (2, 29) else {"bymonthday": naive.day}
            gen = rrule.rrule(rrule.YEARLY, dtstart=naive, interval=interval, bymonth=naive.month, **days, **kw)

        def instants():
            for dt in gen:
                if dt.date() == naive.date():
                    at = send_at
                else:
                    at = dt.replace(tzinfo=tz, fold=0)
                yield at, dt.date(), dt.time()

    out = []
    last = None
    floor = max(frm, send_at)
    for at, day, wall in instants():
        if until is not None and day > until:
            break
        if day in skip:
            continue
        if hrule == "skip" and hol.is_holiday(day):
            continue
        if hrule in ("next_business_day", "previous_business_day"):
            moved = hol.move(day, 1 if hrule == "next_business_day" else -1)
            if moved is None or moved in skip:
                continue
            if moved != day:
                local_time = wall if wall is not None else at.astimezone(tz).time()
                at = datetime.combine(moved, local_time).replace(tzinfo=tz, fold=0)
        if at < floor or (last is not None and at <= last):
            continue
        last = at
        out.append(iso(at))
        if len(out) == n:
            break
    return out


def near_a_transition(rng, tz_name, at):
    """A local time between 00:00 and 03:45 a few days (or weeks) before the zone's next
    offset change, so that daily, weekly and monthly rules land in its gaps and folds."""
    tz = ZoneInfo(tz_name)
    day = at.astimezone(tz).date()
    for _ in range(400):
        noon = datetime.combine(day, datetime.min.time().replace(hour=12), tzinfo=tz)
        if noon.utcoffset() != (noon + timedelta(days=1)).astimezone(tz).utcoffset():
            change = day + timedelta(days=1)
            start = change - timedelta(days=rng.choice([0, 1, 2, 7, 14, 28, 31]))
            local = datetime.combine(start, datetime.min.time().replace(hour=rng.randint(0, 3), minute=rng.choice([0, 15, 30, 45])))
            return local.replace(tzinfo=tz, fold=rng.randint(0, 1)).astimezone(timezone.utc)
        day += timedelta(days=1)
    return at


def main():
    seed, cases, first, last = int(sys.argv[1]), int(sys.argv[2]), date.fromisoformat(sys.argv[3]), date.fromisoformat(sys.argv[4])
    rng = random.Random(seed)
    hol = Holidays(first, last)
    for _ in range(cases):
        tz_name = rng.choice(ZONES)
        holiday_years = rng.random() < 0.4
        if holiday_years:
            start = datetime(first.year, 1, 1, tzinfo=timezone.utc).timestamp()
            end = datetime(last.year - 1, 6, 1, tzinfo=timezone.utc).timestamp()
        else:
            start = datetime(1995, 1, 1, tzinfo=timezone.utc).timestamp()
            end = datetime(2045, 1, 1, tzinfo=timezone.utc).timestamp()
        send_at = datetime.fromtimestamp(rng.randint(int(start), int(end)), tz=timezone.utc)
        if rng.random() < 0.5:
            send_at = near_a_transition(rng, tz_name, send_at)
        rule = random_rule(rng, holiday_years)
        local_start = send_at.astimezone(ZoneInfo(tz_name)).date()
        if rule.get("until") == "later":
            rule["until"] = (local_start + timedelta(days=rng.randint(0, 800))).isoformat()
        if rule.get("skip") == "some":
            rule["skip"] = sorted({(local_start + timedelta(days=rng.randint(0, 120))).isoformat() for _ in range(rng.randint(1, 8))})
        frm = send_at + timedelta(seconds=rng.choice([0, 0, -86400, rng.randint(0, 86400 * 400)]))
        n = 20
        expect = expand(tz_name, send_at, rule, frm, n, hol)
        print(json.dumps({"tz": tz_name, "send_at": iso(send_at), "recurrence": rule, "from": iso(frm), "count": n, "expect": expect}))


if __name__ == "__main__":
    main()
