//! The engine against fixed vectors: DST gaps and folds, month ends, every kind.

use super::schedule::floor_to_second;
use super::*;
use jiff::civil::{Date, Weekday};
use jiff::tz::AmbiguousOffset;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use proptest::prelude::*;

// ---------------------------------------------------------------- helpers

fn zone(name: &str) -> TimeZone {
    TimeZone::get(name).unwrap_or_else(|e| panic!("time zone {name}: {e}"))
}

fn at(rfc3339: &str) -> Timestamp {
    rfc3339.parse().unwrap_or_else(|e| panic!("bad timestamp {rfc3339}: {e}"))
}

fn schedule(tz: &str, send_at: &str, recurrence: Recurrence) -> Schedule {
    Schedule::new(at(send_at), zone(tz), recurrence)
}

fn custom(days: &[Day]) -> Recurrence {
    Recurrence::custom(days)
}

fn hourly(interval_hours: u8) -> Recurrence {
    Recurrence::of(Pattern::Hourly { interval_hours })
}

/// RFC 3339 with the zone's offset, so that a mismatch shows the wall clock.
fn local(t: Timestamp, tz: &TimeZone) -> String {
    t.to_zoned(tz.clone()).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()
}

/// Checks `occurrences(from, n)` against expected RFC 3339 instants,
/// each written with the zone's local offset (so a wrong offset in the
/// expectation fails too). It also checks that stepping with
/// next_at_or_after/next_after gives the same sequence.
fn check(s: &Schedule, from: &str, expected: &[&str]) {
    let what = format!("{:?} in {} from {from}", s.recurrence, s.tz.iana_name().unwrap_or("?"));
    let got = s.occurrences(at(from), expected.len());
    let got_local: Vec<String> = got.iter().map(|&t| local(t, &s.tz)).collect();
    assert_eq!(got_local, expected, "{what}");
    // The expected strings are valid instants in their own right.
    let expected_instants: Vec<Timestamp> = expected.iter().map(|e| at(e)).collect();
    assert_eq!(got, expected_instants, "{what}");

    let mut stepped = Vec::new();
    let mut next = s.next_at_or_after(at(from));
    while let Some(t) = next {
        stepped.push(t);
        if stepped.len() == expected.len() {
            break;
        }
        next = s.next_after(t);
    }
    assert_eq!(stepped, got, "stepping: {what}");
}

// ------------------------------------------------------ fixed vectors

/// One fixed vector: from `from`, the schedule's next occurrences are `expect`, each written
/// with the zone's offset (so a wrong offset in the expectation fails too).
struct Case {
    what: &'static str,
    tz: &'static str,
    send_at: &'static str,
    /// The recurrence as the API takes it.
    rule: &'static str,
    from: &'static str,
    expect: &'static [&'static str],
}

/// Daily, hourly, monthly, weekly, weekdays and custom days in New York, London, Sydney, Lord
/// Howe, Tokyo and Apia: DST gaps (the occurrence moves forward by the gap, then returns) and
/// folds (the earlier instant, once), month ends, leap years, a skipped calendar day.
const CASES: &[Case] = &[
    Case {
        what: "daily 0900 keeps local time across dst new york (s)",
        tz: "America/New_York",
        send_at: "2026-03-06T09:00:00-05:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-03-06T09:00:00-05:00",
        expect: &["2026-03-06T09:00:00-05:00", "2026-03-07T09:00:00-05:00", "2026-03-08T09:00:00-04:00", "2026-03-09T09:00:00-04:00"],
    },
    Case {
        what: "daily 0900 keeps local time across dst new york (s)",
        tz: "America/New_York",
        send_at: "2026-03-06T09:00:00-05:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-31T00:00:00-04:00",
        expect: &["2026-10-31T09:00:00-04:00", "2026-11-01T09:00:00-05:00", "2026-11-02T09:00:00-05:00"],
    },
    Case {
        what: "daily 0900 keeps local time across dst london sydney tokyo (london)",
        tz: "Europe/London",
        send_at: "2026-03-28T09:00:00+00:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-03-28T00:00:00+00:00",
        expect: &["2026-03-28T09:00:00+00:00", "2026-03-29T09:00:00+01:00"],
    },
    Case {
        what: "daily 0900 keeps local time across dst london sydney tokyo (london)",
        tz: "Europe/London",
        send_at: "2026-03-28T09:00:00+00:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-24T00:00:00+01:00",
        expect: &["2026-10-24T09:00:00+01:00", "2026-10-25T09:00:00+00:00"],
    },
    Case {
        what: "daily 0900 keeps local time across dst london sydney tokyo (sydney)",
        tz: "Australia/Sydney",
        send_at: "2026-04-04T09:00:00+11:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-04-04T00:00:00+11:00",
        expect: &["2026-04-04T09:00:00+11:00", "2026-04-05T09:00:00+10:00"],
    },
    Case {
        what: "daily 0900 keeps local time across dst london sydney tokyo (sydney)",
        tz: "Australia/Sydney",
        send_at: "2026-04-04T09:00:00+11:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-03T00:00:00+10:00",
        expect: &["2026-10-03T09:00:00+10:00", "2026-10-04T09:00:00+11:00"],
    },
    Case {
        what: "daily 0900 keeps local time across dst london sydney tokyo (tokyo)",
        tz: "Asia/Tokyo",
        send_at: "2026-03-07T02:30:00+09:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-03-07T02:30:00+09:00",
        expect: &["2026-03-07T02:30:00+09:00", "2026-03-08T02:30:00+09:00", "2026-03-09T02:30:00+09:00"],
    },
    Case {
        what: "daily 0900 keeps local time across dst london sydney tokyo (tokyo)",
        tz: "Asia/Tokyo",
        send_at: "2026-03-07T02:30:00+09:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-31T12:00:00+09:00",
        expect: &["2026-11-01T02:30:00+09:00", "2026-11-02T02:30:00+09:00"],
    },
    Case {
        what: "daily in new york gap moves forward then returns (s)",
        tz: "America/New_York",
        send_at: "2026-03-07T02:30:00-05:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-03-07T02:30:00-05:00",
        expect: &["2026-03-07T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"],
    },
    Case {
        what: "daily in new york fold fires once at the earlier instant (s)",
        tz: "America/New_York",
        send_at: "2026-10-31T01:30:00-04:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-31T01:30:00-04:00",
        expect: &["2026-10-31T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"],
    },
    Case {
        what: "send at in the second half of a fold is its own first occurrence (s): The EDT 01:30 on the same date is before send_at, so it is not an occurrence.",
        tz: "America/New_York",
        send_at: "2026-11-01T01:30:00-05:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-11-01T00:00:00-04:00",
        expect: &["2026-11-01T01:30:00-05:00", "2026-11-02T01:30:00-05:00"],
    },
    Case {
        what: "daily in london gap and fold (gap)",
        tz: "Europe/London",
        send_at: "2026-03-28T01:30:00+00:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-03-28T01:30:00+00:00",
        expect: &["2026-03-28T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-03-30T01:30:00+01:00"],
    },
    Case {
        what: "daily in london gap and fold (fold)",
        tz: "Europe/London",
        send_at: "2026-10-24T01:30:00+01:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-24T01:30:00+01:00",
        expect: &["2026-10-24T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-10-26T01:30:00+00:00"],
    },
    Case {
        what: "daily in sydney gap and fold (gap): 2026-10-04: 02:00 AEST -> 03:00 AEDT.",
        tz: "Australia/Sydney",
        send_at: "2026-10-03T02:30:00+10:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-03T02:30:00+10:00",
        expect: &["2026-10-03T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-05T02:30:00+11:00"],
    },
    Case {
        what: "daily in sydney gap and fold (fold): 2026-04-05: 03:00 AEDT -> 02:00 AEST.",
        tz: "Australia/Sydney",
        send_at: "2026-04-04T02:30:00+11:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-04-04T02:30:00+11:00",
        expect: &["2026-04-04T02:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-04-06T02:30:00+10:00"],
    },
    Case {
        what: "daily in lord howe half hour gap and fold (gap): 2026-10-04: 02:00 -> 02:30 (+10:30 -> +11:00).",
        tz: "Australia/Lord_Howe",
        send_at: "2026-10-03T02:15:00+10:30",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-10-03T02:15:00+10:30",
        expect: &["2026-10-03T02:15:00+10:30", "2026-10-04T02:45:00+11:00", "2026-10-05T02:15:00+11:00"],
    },
    Case {
        what: "daily in lord howe half hour gap and fold (fold): 2026-04-05: 02:00 -> 01:30 (+11:00 -> +10:30).",
        tz: "Australia/Lord_Howe",
        send_at: "2026-04-04T01:45:00+11:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2026-04-04T01:45:00+11:00",
        expect: &["2026-04-04T01:45:00+11:00", "2026-04-05T01:45:00+11:00", "2026-04-06T01:45:00+10:30"],
    },
    Case {
        what: "apia skipped day is deduplicated (daily): Samoa jumped from -10:00 to +14:00, so 2011-12-30 never happened there. Its 09:00 shifts 24 h forward onto the 31st's 09:00, which then counts as one occurrence.",
        tz: "Pacific/Apia",
        send_at: "2011-12-29T09:00:00-10:00",
        rule: r#"{"kind":"daily"}"#,
        from: "2011-12-29T09:00:00-10:00",
        expect: &["2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00"],
    },
    Case {
        what: "apia skipped day is deduplicated (weekdays): Friday the 30th's occurrence lands on Saturday local time, the only way a weekday reminder can fire on a weekend.",
        tz: "Pacific/Apia",
        send_at: "2011-12-29T09:00:00-10:00",
        rule: r#"{"kind":"weekdays"}"#,
        from: "2011-12-29T09:00:00-10:00",
        expect: &["2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-02T09:00:00+14:00"],
    },
    Case {
        what: "hourly counts elapsed hours across dst (spring)",
        tz: "America/New_York",
        send_at: "2026-03-08T00:30:00-05:00",
        rule: r#"{"kind":"hourly","interval_hours":1}"#,
        from: "2026-03-08T00:30:00-05:00",
        expect: &["2026-03-08T00:30:00-05:00", "2026-03-08T01:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-08T04:30:00-04:00"],
    },
    Case {
        what: "hourly counts elapsed hours across dst (fall)",
        tz: "America/New_York",
        send_at: "2026-11-01T00:30:00-04:00",
        rule: r#"{"kind":"hourly","interval_hours":1}"#,
        from: "2026-11-01T00:30:00-04:00",
        expect: &["2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00", "2026-11-01T02:30:00-05:00"],
    },
    Case {
        what: "hourly counts elapsed hours across dst (every3)",
        tz: "America/New_York",
        send_at: "2026-03-07T23:00:00-05:00",
        rule: r#"{"kind":"hourly","interval_hours":3}"#,
        from: "2026-03-07T23:00:00-05:00",
        expect: &["2026-03-07T23:00:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T06:00:00-04:00"],
    },
    Case {
        what: "hourly counts elapsed hours across dst (london)",
        tz: "Europe/London",
        send_at: "2026-10-25T00:30:00+01:00",
        rule: r#"{"kind":"hourly","interval_hours":1}"#,
        from: "2026-10-25T00:30:00+01:00",
        expect: &["2026-10-25T00:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-10-25T01:30:00+00:00", "2026-10-25T02:30:00+00:00"],
    },
    Case {
        what: "hourly counts elapsed hours across dst (sydney_gap)",
        tz: "Australia/Sydney",
        send_at: "2026-10-04T01:30:00+10:00",
        rule: r#"{"kind":"hourly","interval_hours":1}"#,
        from: "2026-10-04T01:30:00+10:00",
        expect: &["2026-10-04T01:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-04T04:30:00+11:00"],
    },
    Case {
        what: "hourly counts elapsed hours across dst (sydney_fold)",
        tz: "Australia/Sydney",
        send_at: "2026-04-05T01:30:00+11:00",
        rule: r#"{"kind":"hourly","interval_hours":1}"#,
        from: "2026-04-05T01:30:00+11:00",
        expect: &["2026-04-05T01:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-04-05T02:30:00+10:00", "2026-04-05T03:30:00+10:00"],
    },
    Case {
        what: "hourly counts elapsed hours across dst (tokyo)",
        tz: "Asia/Tokyo",
        send_at: "2026-03-08T00:30:00+09:00",
        rule: r#"{"kind":"hourly","interval_hours":24}"#,
        from: "2026-03-08T00:30:00+09:00",
        expect: &["2026-03-08T00:30:00+09:00", "2026-03-09T00:30:00+09:00"],
    },
    Case {
        what: "monthly clamps to month end and returns to the 31st (s)",
        tz: "America/New_York",
        send_at: "2026-01-31T09:00:00-05:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-01-31T09:00:00-05:00",
        expect: &[
            "2026-01-31T09:00:00-05:00",
            "2026-02-28T09:00:00-05:00",
            "2026-03-31T09:00:00-04:00",
            "2026-04-30T09:00:00-04:00",
            "2026-05-31T09:00:00-04:00",
        ],
    },
    Case {
        what: "monthly clamps to month end and returns to the 31st (s): Leap year, reached by jumping.",
        tz: "America/New_York",
        send_at: "2026-01-31T09:00:00-05:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2028-01-15T00:00:00-05:00",
        expect: &["2028-01-31T09:00:00-05:00", "2028-02-29T09:00:00-05:00", "2028-03-31T09:00:00-04:00", "2028-04-30T09:00:00-04:00"],
    },
    Case {
        what: "monthly clamps to month end and returns to the 31st (tokyo)",
        tz: "Asia/Tokyo",
        send_at: "2026-01-31T09:00:00+09:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-01-31T09:00:00+09:00",
        expect: &["2026-01-31T09:00:00+09:00", "2026-02-28T09:00:00+09:00", "2026-03-31T09:00:00+09:00", "2026-04-30T09:00:00+09:00"],
    },
    Case {
        what: "monthly clamps to month end and returns to the 31st (london)",
        tz: "Europe/London",
        send_at: "2026-01-31T01:30:00+00:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-01-31T01:30:00+00:00",
        expect: &["2026-01-31T01:30:00+00:00", "2026-02-28T01:30:00+00:00", "2026-03-31T01:30:00+01:00", "2026-04-30T01:30:00+01:00"],
    },
    Case {
        what: "monthly on dst change days (ny_gap)",
        tz: "America/New_York",
        send_at: "2026-02-08T02:30:00-05:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-02-08T02:30:00-05:00",
        expect: &["2026-02-08T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-04-08T02:30:00-04:00"],
    },
    Case {
        what: "monthly on dst change days (ny_fold)",
        tz: "America/New_York",
        send_at: "2026-10-01T01:30:00-04:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-10-01T01:30:00-04:00",
        expect: &["2026-10-01T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-12-01T01:30:00-05:00"],
    },
    Case {
        what: "monthly on dst change days (london_gap)",
        tz: "Europe/London",
        send_at: "2026-02-28T01:30:00+00:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-02-28T01:30:00+00:00",
        expect: &["2026-02-28T01:30:00+00:00", "2026-03-28T01:30:00+00:00", "2026-04-28T01:30:00+01:00"],
    },
    Case {
        what: "monthly on dst change days (london_29)",
        tz: "Europe/London",
        send_at: "2026-01-29T01:30:00+00:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-01-29T01:30:00+00:00",
        expect: &["2026-01-29T01:30:00+00:00", "2026-02-28T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-04-29T01:30:00+01:00"],
    },
    Case {
        what: "monthly on dst change days (london_fold)",
        tz: "Europe/London",
        send_at: "2026-09-25T01:30:00+01:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-09-25T01:30:00+01:00",
        expect: &["2026-09-25T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-11-25T01:30:00+00:00"],
    },
    Case {
        what: "monthly on dst change days (sydney_gap)",
        tz: "Australia/Sydney",
        send_at: "2026-09-04T02:30:00+10:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-09-04T02:30:00+10:00",
        expect: &["2026-09-04T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-11-04T02:30:00+11:00"],
    },
    Case {
        what: "monthly on dst change days (sydney_fold)",
        tz: "Australia/Sydney",
        send_at: "2026-03-05T02:30:00+11:00",
        rule: r#"{"kind":"monthly"}"#,
        from: "2026-03-05T02:30:00+11:00",
        expect: &["2026-03-05T02:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-05-05T02:30:00+10:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (ny)",
        tz: "America/New_York",
        send_at: "2026-03-01T09:00:00-05:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-03-01T09:00:00-05:00",
        expect: &["2026-03-01T09:00:00-05:00", "2026-03-08T09:00:00-04:00", "2026-03-15T09:00:00-04:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (ny_gap)",
        tz: "America/New_York",
        send_at: "2026-03-01T02:30:00-05:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-03-01T02:30:00-05:00",
        expect: &["2026-03-01T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-15T02:30:00-04:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (ny_fold)",
        tz: "America/New_York",
        send_at: "2026-10-25T01:30:00-04:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-10-25T01:30:00-04:00",
        expect: &["2026-10-25T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-08T01:30:00-05:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (london_gap)",
        tz: "Europe/London",
        send_at: "2026-03-22T01:30:00+00:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-03-22T01:30:00+00:00",
        expect: &["2026-03-22T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-04-05T01:30:00+01:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (london_fold)",
        tz: "Europe/London",
        send_at: "2026-10-18T01:30:00+01:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-10-18T01:30:00+01:00",
        expect: &["2026-10-18T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-11-01T01:30:00+00:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (sydney_gap)",
        tz: "Australia/Sydney",
        send_at: "2026-09-27T02:30:00+10:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-09-27T02:30:00+10:00",
        expect: &["2026-09-27T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-11T02:30:00+11:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (sydney_fold)",
        tz: "Australia/Sydney",
        send_at: "2026-03-29T02:30:00+11:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-03-29T02:30:00+11:00",
        expect: &["2026-03-29T02:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-04-12T02:30:00+10:00"],
    },
    Case {
        what: "weekly keeps weekday and time across dst (tokyo)",
        tz: "Asia/Tokyo",
        send_at: "2026-03-01T09:00:00+09:00",
        rule: r#"{"kind":"weekly"}"#,
        from: "2026-03-02T00:00:00+09:00",
        expect: &["2026-03-08T09:00:00+09:00", "2026-03-15T09:00:00+09:00"],
    },
    Case {
        what: "weekdays from a saturday start on monday (ny)",
        tz: "America/New_York",
        send_at: "2026-03-07T09:00:00-05:00",
        rule: r#"{"kind":"weekdays"}"#,
        from: "2026-03-01T00:00:00-05:00",
        expect: &[
            "2026-03-09T09:00:00-04:00",
            "2026-03-10T09:00:00-04:00",
            "2026-03-11T09:00:00-04:00",
            "2026-03-12T09:00:00-04:00",
            "2026-03-13T09:00:00-04:00",
            "2026-03-16T09:00:00-04:00",
        ],
    },
    Case {
        what: "weekdays from a saturday start on monday (london)",
        tz: "Europe/London",
        send_at: "2026-10-23T09:00:00+01:00",
        rule: r#"{"kind":"weekdays"}"#,
        from: "2026-10-23T09:00:00+01:00",
        expect: &["2026-10-23T09:00:00+01:00", "2026-10-26T09:00:00+00:00"],
    },
    Case {
        what: "weekdays from a saturday start on monday (sydney)",
        tz: "Australia/Sydney",
        send_at: "2026-04-03T09:00:00+11:00",
        rule: r#"{"kind":"weekdays"}"#,
        from: "2026-04-03T09:00:00+11:00",
        expect: &["2026-04-03T09:00:00+11:00", "2026-04-06T09:00:00+10:00"],
    },
    Case {
        what: "weekdays from a saturday start on monday (tokyo)",
        tz: "Asia/Tokyo",
        send_at: "2026-03-07T09:00:00+09:00",
        rule: r#"{"kind":"weekdays"}"#,
        from: "2026-03-07T09:00:00+09:00",
        expect: &["2026-03-09T09:00:00+09:00", "2026-03-10T09:00:00+09:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (ny)",
        tz: "America/New_York",
        send_at: "2026-03-07T09:00:00-05:00",
        rule: r#"{"kind":"custom","days":["mon","wed"]}"#,
        from: "2026-03-07T09:00:00-05:00",
        expect: &["2026-03-09T09:00:00-04:00", "2026-03-11T09:00:00-04:00", "2026-03-16T09:00:00-04:00", "2026-03-18T09:00:00-04:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (ny_gap)",
        tz: "America/New_York",
        send_at: "2026-03-01T02:30:00-05:00",
        rule: r#"{"kind":"custom","days":["sun"]}"#,
        from: "2026-03-01T02:30:00-05:00",
        expect: &["2026-03-01T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-15T02:30:00-04:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (ny_fold): The order of days does not matter.",
        tz: "America/New_York",
        send_at: "2026-10-25T01:30:00-04:00",
        rule: r#"{"kind":"custom","days":["mon","sun"]}"#,
        from: "2026-10-25T01:30:00-04:00",
        expect: &["2026-10-25T01:30:00-04:00", "2026-10-26T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (london)",
        tz: "Europe/London",
        send_at: "2026-03-22T01:30:00+00:00",
        rule: r#"{"kind":"custom","days":["sun"]}"#,
        from: "2026-03-22T01:30:00+00:00",
        expect: &["2026-03-22T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-04-05T01:30:00+01:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (london_fold)",
        tz: "Europe/London",
        send_at: "2026-10-24T01:30:00+01:00",
        rule: r#"{"kind":"custom","days":["sat","sun"]}"#,
        from: "2026-10-24T01:30:00+01:00",
        expect: &["2026-10-24T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-10-31T01:30:00+00:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (sydney)",
        tz: "Australia/Sydney",
        send_at: "2026-09-27T02:30:00+10:00",
        rule: r#"{"kind":"custom","days":["sun"]}"#,
        from: "2026-09-27T02:30:00+10:00",
        expect: &["2026-09-27T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-11T02:30:00+11:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (sydney_fold)",
        tz: "Australia/Sydney",
        send_at: "2026-04-04T02:30:00+11:00",
        rule: r#"{"kind":"custom","days":["sun"]}"#,
        from: "2026-04-04T02:30:00+11:00",
        expect: &["2026-04-05T02:30:00+11:00", "2026-04-12T02:30:00+10:00"],
    },
    Case {
        what: "custom days fire only on chosen weekdays (tokyo)",
        tz: "Asia/Tokyo",
        send_at: "2026-03-07T09:00:00+09:00",
        rule: r#"{"kind":"custom","days":["wed","mon"]}"#,
        from: "2026-03-07T09:00:00+09:00",
        expect: &["2026-03-09T09:00:00+09:00", "2026-03-11T09:00:00+09:00", "2026-03-16T09:00:00+09:00"],
    },
    Case {
        what: "yearly on 29 February: the 28th in other years",
        tz: "Asia/Tokyo",
        send_at: "2028-02-29T09:00:00+09:00",
        rule: r#"{"kind":"yearly"}"#,
        from: "2028-02-29T09:00:00+09:00",
        expect: &[
            "2028-02-29T09:00:00+09:00",
            "2029-02-28T09:00:00+09:00",
            "2030-02-28T09:00:00+09:00",
            "2031-02-28T09:00:00+09:00",
            "2032-02-29T09:00:00+09:00",
        ],
    },
    Case {
        what: "every 2 years; send_at in the 2026 gap is 03:30 EDT, so the anchor is 03:30",
        tz: "America/New_York",
        send_at: "2026-03-08T02:30:00-05:00",
        rule: r#"{"kind":"yearly","interval":2}"#,
        from: "2026-01-01T00:00:00-05:00",
        expect: &["2026-03-08T03:30:00-04:00", "2028-03-08T03:30:00-05:00", "2030-03-08T03:30:00-05:00"],
    },
    Case {
        what: "monthly on the last day (day -1)",
        tz: "Asia/Tokyo",
        send_at: "2026-01-31T09:00:00+09:00",
        rule: r#"{"kind":"monthly","day":-1}"#,
        from: "2026-01-31T09:00:00+09:00",
        expect: &["2026-01-31T09:00:00+09:00", "2026-02-28T09:00:00+09:00", "2026-03-31T09:00:00+09:00", "2026-04-30T09:00:00+09:00"],
    },
    Case {
        what: "monthly on day 30, clamped in February, every 2 months",
        tz: "Europe/London",
        send_at: "2026-01-10T08:00:00+00:00",
        rule: r#"{"kind":"monthly","interval":2,"day":30}"#,
        from: "2026-01-10T08:00:00+00:00",
        expect: &["2026-01-30T08:00:00+00:00", "2026-03-30T08:00:00+01:00", "2026-05-30T08:00:00+01:00"],
    },
    Case {
        what: "第2火曜日 (2nd Tuesday); send_at itself is not one",
        tz: "Asia/Tokyo",
        send_at: "2026-01-01T09:00:00+09:00",
        rule: r#"{"kind":"monthly","week":2,"weekday":"tue"}"#,
        from: "2026-01-01T09:00:00+09:00",
        expect: &["2026-01-13T09:00:00+09:00", "2026-02-10T09:00:00+09:00", "2026-03-10T09:00:00+09:00", "2026-04-14T09:00:00+09:00"],
    },
    Case {
        what: "5th Friday: 4-week months have none",
        tz: "Asia/Tokyo",
        send_at: "2026-01-01T09:00:00+09:00",
        rule: r#"{"kind":"monthly","week":5,"weekday":"fri"}"#,
        from: "2026-01-01T09:00:00+09:00",
        expect: &["2026-01-30T09:00:00+09:00", "2026-05-29T09:00:00+09:00", "2026-07-31T09:00:00+09:00", "2026-10-30T09:00:00+09:00"],
    },
    Case {
        what: "last Friday (week -1) in 4- and 5-week months",
        tz: "America/New_York",
        send_at: "2026-01-01T17:00:00-05:00",
        rule: r#"{"kind":"monthly","week":-1,"weekday":"fri"}"#,
        from: "2026-01-01T17:00:00-05:00",
        expect: &[
            "2026-01-30T17:00:00-05:00",
            "2026-02-27T17:00:00-05:00",
            "2026-03-27T17:00:00-04:00",
            "2026-04-24T17:00:00-04:00",
            "2026-05-29T17:00:00-04:00",
        ],
    },
    Case {
        what: "every other Tuesday and Thursday (weeks start Monday)",
        tz: "Australia/Sydney",
        send_at: "2026-09-28T07:00:00+10:00",
        rule: r#"{"kind":"custom","days":["tue","thu"],"interval":2}"#,
        from: "2026-09-28T07:00:00+10:00",
        expect: &["2026-09-29T07:00:00+10:00", "2026-10-01T07:00:00+10:00", "2026-10-13T07:00:00+11:00", "2026-10-15T07:00:00+11:00"],
    },
    Case {
        what: "every 3 days",
        tz: "Australia/Lord_Howe",
        send_at: "2026-10-01T02:15:00+10:30",
        rule: r#"{"kind":"daily","interval":3}"#,
        from: "2026-10-01T02:15:00+10:30",
        expect: &["2026-10-01T02:15:00+10:30", "2026-10-04T02:45:00+11:00", "2026-10-07T02:15:00+11:00"],
    },
    Case {
        what: "count 3 ends it",
        tz: "Asia/Tokyo",
        send_at: "2026-03-01T09:00:00+09:00",
        rule: r#"{"kind":"daily","count":3}"#,
        from: "2026-03-01T09:00:00+09:00",
        expect: &["2026-03-01T09:00:00+09:00", "2026-03-02T09:00:00+09:00", "2026-03-03T09:00:00+09:00"],
    },
    Case {
        what: "until is a local date, inclusive",
        tz: "Pacific/Apia",
        send_at: "2026-03-01T23:30:00+13:00",
        rule: r#"{"kind":"weekly","until":"2026-03-15"}"#,
        from: "2026-03-01T23:30:00+13:00",
        expect: &["2026-03-01T23:30:00+13:00", "2026-03-08T23:30:00+13:00", "2026-03-15T23:30:00+13:00"],
    },
    Case {
        what: "a skipped date still counts toward count",
        tz: "Asia/Tokyo",
        send_at: "2026-03-01T09:00:00+09:00",
        rule: r#"{"kind":"daily","count":3,"skip":["2026-03-02"]}"#,
        from: "2026-03-01T09:00:00+09:00",
        expect: &["2026-03-01T09:00:00+09:00", "2026-03-03T09:00:00+09:00"],
    },
    Case {
        what: "平日 skipping holidays: 振替休日 2026-05-06",
        tz: "Asia/Tokyo",
        send_at: "2026-05-01T07:30:00+09:00",
        rule: r#"{"kind":"weekdays","holidays":"skip"}"#,
        from: "2026-05-01T07:30:00+09:00",
        expect: &["2026-05-01T07:30:00+09:00", "2026-05-07T07:30:00+09:00", "2026-05-08T07:30:00+09:00"],
    },
    Case {
        what: "平日 skipping holidays: 敬老の日, 国民の休日 and 秋分の日 2026",
        tz: "Asia/Tokyo",
        send_at: "2026-09-18T07:30:00+09:00",
        rule: r#"{"kind":"weekdays","holidays":"skip"}"#,
        from: "2026-09-18T07:30:00+09:00",
        expect: &["2026-09-18T07:30:00+09:00", "2026-09-24T07:30:00+09:00", "2026-09-25T07:30:00+09:00", "2026-09-28T07:30:00+09:00"],
    },
    Case {
        what: "skip drops only holidays: 元日 2027, not the Saturday after",
        tz: "Asia/Tokyo",
        send_at: "2026-12-31T09:00:00+09:00",
        rule: r#"{"kind":"daily","holidays":"skip"}"#,
        from: "2026-12-31T09:00:00+09:00",
        expect: &["2026-12-31T09:00:00+09:00", "2027-01-02T09:00:00+09:00", "2027-01-03T09:00:00+09:00"],
    },
    Case {
        what: "平日 skipping 成人の日 2027",
        tz: "Asia/Tokyo",
        send_at: "2027-01-08T08:00:00+09:00",
        rule: r#"{"kind":"weekdays","holidays":"skip"}"#,
        from: "2027-01-08T08:00:00+09:00",
        expect: &["2027-01-08T08:00:00+09:00", "2027-01-12T08:00:00+09:00"],
    },
    Case {
        what: "daily, next business day: the September 2026 run lands once on the 24th",
        tz: "Asia/Tokyo",
        send_at: "2026-09-18T09:00:00+09:00",
        rule: r#"{"kind":"daily","holidays":"next_business_day"}"#,
        from: "2026-09-18T09:00:00+09:00",
        expect: &["2026-09-18T09:00:00+09:00", "2026-09-24T09:00:00+09:00", "2026-09-25T09:00:00+09:00", "2026-09-28T09:00:00+09:00"],
    },
    Case {
        what: "daily, previous business day: the run lands on the 18th, already there",
        tz: "Asia/Tokyo",
        send_at: "2026-09-18T09:00:00+09:00",
        rule: r#"{"kind":"daily","holidays":"previous_business_day"}"#,
        from: "2026-09-18T09:00:00+09:00",
        expect: &["2026-09-18T09:00:00+09:00", "2026-09-24T09:00:00+09:00", "2026-09-25T09:00:00+09:00", "2026-09-28T09:00:00+09:00"],
    },
    Case {
        what: "monthly on the 22nd, next business day: 振替休日 2027-03-22 moves to the 23rd",
        tz: "Asia/Tokyo",
        send_at: "2027-02-22T09:00:00+09:00",
        rule: r#"{"kind":"monthly","holidays":"next_business_day"}"#,
        from: "2027-02-22T09:00:00+09:00",
        expect: &["2027-02-22T09:00:00+09:00", "2027-03-23T09:00:00+09:00", "2027-04-22T09:00:00+09:00"],
    },
    Case {
        what: "monthly on the 23rd, previous business day: a Sunday and 秋分の日 2026",
        tz: "Asia/Tokyo",
        send_at: "2026-07-23T09:00:00+09:00",
        rule: r#"{"kind":"monthly","holidays":"previous_business_day"}"#,
        from: "2026-07-23T09:00:00+09:00",
        expect: &["2026-07-23T09:00:00+09:00", "2026-08-21T09:00:00+09:00", "2026-09-18T09:00:00+09:00", "2026-10-23T09:00:00+09:00"],
    },
    Case {
        what: "春分の日 2026 with a next-business-day move seen from after the holiday",
        tz: "Asia/Tokyo",
        send_at: "2026-03-01T09:00:00+09:00",
        rule: r#"{"kind":"monthly","day":20,"holidays":"next_business_day"}"#,
        from: "2026-03-21T00:00:00+09:00",
        expect: &["2026-03-23T09:00:00+09:00", "2026-04-20T09:00:00+09:00"],
    },
];

#[test]
fn fixed_vectors() {
    for case in CASES {
        let rule: Recurrence = serde_json::from_str(case.rule).unwrap_or_else(|e| panic!("{}: {e}", case.what));
        eprintln!("case: {}", case.what);
        check(&schedule(case.tz, case.send_at, rule), case.from, case.expect);
    }
}

#[test]
fn after_a_dst_gap_or_fold_the_next_occurrence_is_the_usual_one() {
    let gap = schedule("America/New_York", "2026-03-07T02:30:00-05:00", Recurrence::daily());
    assert_eq!(gap.next_after(at("2026-03-08T03:30:00-04:00")), Some(at("2026-03-09T02:30:00-04:00")));
    // Not again at 01:30 EST.
    let fold = schedule("America/New_York", "2026-10-31T01:30:00-04:00", Recurrence::daily());
    assert_eq!(fold.next_after(at("2026-11-01T01:30:00-04:00")), Some(at("2026-11-02T01:30:00-05:00")));
    assert_eq!(fold.next_at_or_after(at("2026-11-01T01:30:00-05:00")), Some(at("2026-11-02T01:30:00-05:00")));
}

#[test]
fn hourly_far_from_send_at_jumps_by_arithmetic() {
    let s = schedule("America/New_York", "2026-01-01T00:00:00-05:00", hourly(5));
    // 2026-01-01 to 2056-01-01 is 10957 days = 262968 h; the next multiple of 5 is 262970.
    check(&s, "2056-01-01T00:00:00-05:00", &["2056-01-01T02:00:00-05:00", "2056-01-01T07:00:00-05:00"]);
    let mut it = s.iter_from(at("5000-01-01T00:00:00Z"));
    assert!(it.next().is_some());
    assert_eq!(it.examined, 1);
}

#[test]
fn from_inside_an_interval_and_subsecond_inputs() {
    let s = schedule("Asia/Tokyo", "2026-03-08T00:30:00+09:00", hourly(2));
    assert_eq!(s.next_at_or_after(at("2026-03-08T00:30:00.5+09:00")), Some(at("2026-03-08T02:30:00+09:00")));
    assert_eq!(s.next_after(at("2026-03-08T00:29:59.999+09:00")), Some(at("2026-03-08T00:30:00+09:00")));
    // A fraction of a second in send_at is dropped.
    let fractional = schedule("Asia/Tokyo", "2026-03-08T00:30:00.75+09:00", Recurrence::daily());
    assert_eq!(
        fractional.occurrences(at("2026-03-08T00:00:00+09:00"), 2),
        vec![at("2026-03-08T00:30:00+09:00"), at("2026-03-09T00:30:00+09:00")]
    );
    let before_epoch = schedule("UTC", "1969-12-31T23:59:59.25Z", Recurrence::once());
    assert_eq!(before_epoch.next_at_or_after(Timestamp::MIN), Some(at("1969-12-31T23:59:59Z")));
}

#[test]
fn weekdays_send_at_on_a_saturday_is_not_an_occurrence() {
    let ny = schedule("America/New_York", "2026-03-07T09:00:00-05:00", Recurrence::weekdays());
    assert_eq!(ny.next_at_or_after(at("2026-03-07T09:00:00-05:00")), Some(at("2026-03-09T09:00:00-04:00")));
}

// ----------------------------------------------------------- None kind

#[test]
fn one_time_reminder() {
    let s = schedule("Europe/London", "2026-03-29T01:30:00Z", Recurrence::once());
    let send_at = at("2026-03-29T01:30:00Z");
    assert_eq!(s.next_at_or_after(Timestamp::MIN), Some(send_at));
    assert_eq!(s.next_at_or_after(send_at), Some(send_at));
    assert_eq!(s.next_at_or_after(at("2026-03-29T01:30:01Z")), None);
    assert_eq!(s.next_after(send_at), None);
    assert_eq!(s.occurrences(Timestamp::MIN, 10), vec![send_at]);
    assert_eq!(s.occurrences(send_at, 0), vec![]);
}

// ------------------------------------------- efficiency and range edges

#[test]
fn far_from_send_at_jumps_instead_of_walking() {
    let kinds = [Recurrence::daily(), Recurrence::weekly(), Recurrence::weekdays(), custom(&[Day::Sun]), Recurrence::monthly()];
    for recurrence in kinds {
        let s = schedule("America/New_York", "2026-01-31T09:00:00-05:00", recurrence);
        let mut it = s.iter_from(at("9000-06-15T12:00:00Z"));
        let first = it.next().expect("an occurrence");
        assert!(first >= at("9000-06-15T12:00:00Z"));
        // The slack is a few days, or at most two months for monthly.
        assert!(it.examined <= 10, "{:?} examined {}", s.recurrence, it.examined);
    }
    let s = schedule("America/New_York", "2026-01-31T09:00:00-05:00", Recurrence::monthly());
    check(&s, "2090-02-01T00:00:00-05:00", &["2090-02-28T09:00:00-05:00", "2090-03-31T09:00:00-04:00"]);
    let s = schedule("Europe/London", "2026-01-31T09:00:00Z", Recurrence::weekly());
    // 2026-01-31 is a Saturday, so is 2100-01-02.
    check(&s, "2100-01-01T00:00:00Z", &["2100-01-02T09:00:00+00:00", "2100-01-09T09:00:00+00:00"]);
}

#[test]
fn range_edges_end_the_sequence_without_panicking() {
    let all = [
        Recurrence::once(),
        hourly(1),
        hourly(24),
        Recurrence::daily(),
        Recurrence::weekly(),
        Recurrence::weekdays(),
        custom(&[Day::Sun]),
        Recurrence::monthly(),
    ];
    for name in ["Pacific/Kiritimati", "America/New_York", "Pacific/Niue", "UTC"] {
        let tz = zone(name);
        for recurrence in &all {
            for send_at in [Timestamp::MIN, Timestamp::MAX] {
                let s = Schedule::new(send_at, tz.clone(), recurrence.clone());
                for from in [Timestamp::MIN, Timestamp::MAX] {
                    let occ = s.occurrences(from, 5);
                    assert!(occ.windows(2).all(|w| w[0] < w[1]));
                    assert!(occ.iter().all(|&o| o >= from));
                    let _ = s.next_after(from);
                }
                assert_eq!(s.next_after(Timestamp::MAX), None);
            }
        }
    }
    // The last hours of jiff's range: hourly stops at the edge.
    let near_end = floor_to_second(Timestamp::MAX) - SignedDuration::from_hours(2);
    let s = Schedule::new(near_end, zone("UTC"), hourly(1));
    let occ = s.occurrences(near_end, 10);
    assert_eq!(occ.len(), 3);
    assert_eq!(occ[2], floor_to_second(Timestamp::MAX));
}

#[test]
fn invalid_rules_compute_without_panicking() {
    let zero = schedule("UTC", "2026-01-01T00:00:00Z", hourly(0));
    assert_eq!(zero.next_at_or_after(Timestamp::MIN), None);
    let empty = schedule("UTC", "2026-01-01T00:00:00Z", custom(&[]));
    assert_eq!(empty.occurrences(Timestamp::MIN, 3), vec![]);
    let dup = schedule("UTC", "2026-01-05T00:00:00Z", custom(&[Day::Mon, Day::Mon]));
    assert_eq!(dup.occurrences(Timestamp::MIN, 2), vec![at("2026-01-05T00:00:00Z"), at("2026-01-12T00:00:00Z")]);
    let long = schedule("UTC", "2026-01-01T00:00:00Z", hourly(255));
    assert_eq!(long.next_after(at("2026-01-01T00:00:00Z")), Some(at("2026-01-11T15:00:00Z")));
}

// ------------------------------------------------- serde and validation

#[test]
fn serde_round_trips() {
    let cases = [
        (r#"{"kind":"none"}"#, Recurrence::once()),
        (r#"{"kind":"hourly","interval_hours":3}"#, hourly(3)),
        (r#"{"kind":"daily"}"#, Recurrence::daily()),
        (r#"{"kind":"weekly"}"#, Recurrence::weekly()),
        (r#"{"kind":"weekdays"}"#, Recurrence::weekdays()),
        (r#"{"kind":"custom","days":["mon","wed"]}"#, custom(&[Day::Mon, Day::Wed])),
        (r#"{"kind":"monthly"}"#, Recurrence::monthly()),
        (r#"{"kind":"daily","interval":3}"#, Recurrence::of(Pattern::Daily { interval: 3 })),
        (r#"{"kind":"custom","days":["tue"],"interval":2}"#, Recurrence::of(Pattern::Custom { days: vec![Day::Tue], interval: 2 })),
        (r#"{"kind":"monthly","day":-1}"#, Recurrence::of(Pattern::Monthly { interval: 1, day: Some(-1), week: None, weekday: None })),
        (
            r#"{"kind":"monthly","interval":2,"week":2,"weekday":"tue"}"#,
            Recurrence::of(Pattern::Monthly { interval: 2, day: None, week: Some(2), weekday: Some(Day::Tue) }),
        ),
        (r#"{"kind":"yearly"}"#, Recurrence::of(Pattern::Yearly { interval: 1 })),
        (
            r#"{"kind":"weekdays","until":"2027-03-31","skip":["2026-12-25"],"holidays":"next_business_day"}"#,
            Recurrence {
                pattern: Pattern::Weekdays,
                shape: Shape {
                    until: Some(jiff::civil::date(2027, 3, 31)),
                    count: None,
                    skip: vec![jiff::civil::date(2026, 12, 25)],
                    holidays: HolidayRule::NextBusinessDay,
                },
            },
        ),
        (
            r#"{"kind":"hourly","interval_hours":2,"count":5}"#,
            Recurrence { pattern: Pattern::Hourly { interval_hours: 2 }, shape: Shape { count: Some(5), ..Shape::default() } },
        ),
    ];
    for (json, value) in cases {
        let parsed: Recurrence = serde_json::from_str(json).unwrap();
        assert_eq!(parsed, value, "{json}");
        assert_eq!(serde_json::to_string(&value).unwrap(), json);
    }
    let all_days: Vec<Day> = serde_json::from_str(r#"["mon","tue","wed","thu","fri","sat","sun"]"#).unwrap();
    assert_eq!(all_days, Day::ALL);
    assert_eq!(serde_json::to_string(&Day::ALL).unwrap(), r#"["mon","tue","wed","thu","fri","sat","sun"]"#);
    for bad in [
        r#"{"kind":"fortnightly"}"#,
        r#"{"kind":"daily","until":"2027-02-30"}"#,
        r#"{"kind":"daily","holidays":"sometimes"}"#,
        r#"{"kind":"custom","days":["monday"]}"#,
        r#"{"kind":"hourly"}"#,
        r#"{"kind":"hourly","interval_hours":256}"#,
        r#"{"days":["mon"]}"#,
    ] {
        assert!(serde_json::from_str::<Recurrence>(bad).is_err(), "{bad}");
    }
}

#[test]
fn day_converts_to_and_from_weekday() {
    for day in Day::ALL {
        assert_eq!(Day::from(Weekday::from(day)), day);
    }
    assert_eq!(Weekday::from(Day::Mon), Weekday::Monday);
    assert_eq!(Weekday::from(Day::Sun), Weekday::Sunday);
    assert_eq!(Day::from(Weekday::Saturday), Day::Sat);
    assert_eq!(Day::Wed.to_string(), "Wednesday");
}

#[test]
fn validate_accepts_good_rules_and_explains_bad_ones() {
    for ok in [
        Recurrence::once(),
        hourly(1),
        hourly(24),
        Recurrence::daily(),
        Recurrence::weekly(),
        Recurrence::weekdays(),
        custom(&Day::ALL),
        custom(&[Day::Sun, Day::Mon]),
        Recurrence::monthly(),
        Recurrence::of(Pattern::Monthly { interval: 12, day: Some(-1), week: None, weekday: None }),
        Recurrence::of(Pattern::Monthly { interval: 1, day: None, week: Some(5), weekday: Some(Day::Fri) }),
        Recurrence::of(Pattern::Yearly { interval: 10 }),
        Recurrence { pattern: Pattern::Daily { interval: 365 }, shape: Shape { count: Some(1000), ..Shape::default() } },
    ] {
        assert_eq!(ok.validate(), Ok(()), "{ok:?}");
    }
    let monthly = |day, week, weekday| Recurrence::of(Pattern::Monthly { interval: 1, day, week, weekday });
    assert_eq!(monthly(Some(0), None, None).validate(), Err(RecurrenceError::InvalidMonthDay));
    assert_eq!(monthly(Some(32), None, None).validate(), Err(RecurrenceError::InvalidMonthDay));
    assert_eq!(monthly(None, Some(6), Some(Day::Mon)).validate(), Err(RecurrenceError::InvalidMonthWeek));
    assert_eq!(monthly(None, Some(2), None).validate(), Err(RecurrenceError::InvalidMonthWeek));
    assert_eq!(monthly(Some(3), Some(2), Some(Day::Mon)).validate(), Err(RecurrenceError::DayAndWeek));
    assert_eq!(Recurrence::of(Pattern::Daily { interval: 366 }).validate(), Err(RecurrenceError::InvalidInterval { given: 366, max: 365 }));
    assert_eq!(Recurrence::of(Pattern::Weekly { interval: 0 }).validate(), Err(RecurrenceError::InvalidInterval { given: 0, max: 52 }));
    let shaped = |shape| Recurrence { pattern: Pattern::Weekdays, shape };
    let d = jiff::civil::date(2027, 1, 1);
    assert_eq!(shaped(Shape { until: Some(d), count: Some(3), ..Shape::default() }).validate(), Err(RecurrenceError::UntilAndCount));
    assert_eq!(shaped(Shape { count: Some(1001), ..Shape::default() }).validate(), Err(RecurrenceError::InvalidCount));
    assert_eq!(shaped(Shape { skip: vec![d; 101], ..Shape::default() }).validate(), Err(RecurrenceError::TooManySkips));
    assert_eq!(
        Recurrence { pattern: Pattern::None, shape: Shape { count: Some(2), ..Shape::default() } }.validate(),
        Err(RecurrenceError::ShapeOnOneTime)
    );
    for hours in [0, 25, 255] {
        let err = hourly(hours).validate().unwrap_err();
        assert_eq!(err, RecurrenceError::InvalidHourlyInterval(hours));
    }
    assert_eq!(RecurrenceError::InvalidHourlyInterval(0).to_string(), "The hourly interval must be between 1 and 24 hours, but it is 0.");
    let err = custom(&[]).validate().unwrap_err();
    assert_eq!(err, RecurrenceError::NoCustomDays);
    assert_eq!(err.to_string(), "A custom recurrence needs at least one day.");
    let err = custom(&[Day::Mon, Day::Wed, Day::Mon]).validate().unwrap_err();
    assert_eq!(err, RecurrenceError::DuplicateCustomDay(Day::Mon));
    assert_eq!(err.to_string(), "Monday appears more than once in the custom recurrence.");
}

// ------------------------------------------------------------ proptests

/// Real zones, chosen for unusual DST: 30-minute DST (Lord_Howe),
/// transitions at midnight (Santiago, Havana, Sao_Paulo, Tehran), negative
/// DST in the tzdb source (Dublin, Casablanca), a 45-minute offset
/// (Kathmandu, Chatham), a half-hour offset (St_Johns), a skipped
/// calendar day (Apia), and no DST at all (Tokyo).
const ZONES: &[&str] = &[
    "America/New_York",
    "Europe/London",
    "Australia/Sydney",
    "Asia/Tokyo",
    "Australia/Lord_Howe",
    "America/Santiago",
    "Europe/Dublin",
    "Asia/Kathmandu",
    "Pacific/Chatham",
    "America/St_Johns",
    "Africa/Casablanca",
    "Pacific/Apia",
    "America/Havana",
    "America/Sao_Paulo",
    "Asia/Tehran",
    "Europe/Moscow",
];

const DAY: i64 = 86_400;
/// 1990-01-01T00:00:00Z and 2060-12-31T00:00:00Z.
const START_1990: i64 = 631_152_000;
const END_2060: i64 = 2_871_763_200;

fn recurrence_strategy() -> impl Strategy<Value = Recurrence> {
    let day = prop_oneof![Just(None), (1i8..=31).prop_map(Some), Just(Some(-1))];
    let nth = (prop_oneof![1i8..=5, Just(-1)], 0usize..7).prop_map(|(w, d)| (Some(w), Some(Day::ALL[d])));
    prop_oneof![
        Just(Recurrence::once()),
        (1u8..=24).prop_map(hourly),
        (1u16..=5).prop_map(|interval| Recurrence::of(Pattern::Daily { interval })),
        (1u16..=3).prop_map(|interval| Recurrence::of(Pattern::Weekly { interval })),
        Just(Recurrence::weekdays()),
        (proptest::sample::subsequence(Day::ALL.to_vec(), 1..=7).prop_shuffle(), 1u16..=3)
            .prop_map(|(days, interval)| Recurrence::of(Pattern::Custom { days, interval })),
        (1u16..=4, day).prop_map(|(interval, day)| Recurrence::of(Pattern::Monthly { interval, day, week: None, weekday: None })),
        (1u16..=4, nth).prop_map(|(interval, (week, weekday))| Recurrence::of(Pattern::Monthly { interval, day: None, week, weekday })),
        (1u16..=3).prop_map(|interval| Recurrence::of(Pattern::Yearly { interval })),
    ]
}

/// Picks a `send_at` in 1990..2060. Half the time it is placed a few
/// days (or about a week or a month) before one of the zone's
/// transitions, near the transition's wall-clock time, so that calendar
/// rules often land in gaps and folds.
fn send_at_strategy() -> impl Strategy<Value = (TimeZone, Timestamp)> {
    (0..ZONES.len(), START_1990..END_2060, any::<bool>(), prop_oneof![0i64..=8, 13i64..=15, 27i64..=32], -100i64..=100).prop_map(
        |(zone_index, base, near, days_back, minutes)| {
            let tz = zone(ZONES[zone_index]);
            let base = Timestamp::from_second(base).unwrap();
            let transition = if near { tz.following(base).next().map(|t| t.timestamp()) } else { None };
            let send_at = match transition {
                Some(t) => t - SignedDuration::from_secs(days_back * DAY - minutes * 60),
                None => base,
            };
            (tz, send_at)
        },
    )
}

/// Does the civil date `date` match the rule of a calendar recurrence? Written from the
/// definitions, date by date.
fn rule_matches(recurrence: &Recurrence, anchor: Date, date: Date) -> bool {
    let days = anchor.duration_until(date).as_hours() / 24;
    let monday = |d: Date| d - jiff::Span::new().days(i64::from(d.weekday().to_monday_zero_offset()));
    let weeks = monday(anchor).duration_until(monday(date)).as_hours() / (24 * 7);
    let months = (i64::from(date.year()) * 12 + i64::from(date.month())) - (i64::from(anchor.year()) * 12 + i64::from(anchor.month()));
    let clamped = |day: i8| date.day() == day.min(date.days_in_month());
    match &recurrence.pattern {
        Pattern::Daily { interval } => days % i64::from(*interval) == 0,
        Pattern::Weekly { interval } => days % (7 * i64::from(*interval)) == 0,
        Pattern::Weekdays => !matches!(date.weekday(), Weekday::Saturday | Weekday::Sunday),
        Pattern::Custom { days, interval } => weeks % i64::from(*interval) == 0 && days.contains(&Day::from(date.weekday())),
        Pattern::Monthly { interval, day, week, weekday } => {
            months % i64::from(*interval) == 0
                && match (day, week, weekday) {
                    (Some(-1), _, _) => date == date.last_of_month(),
                    (Some(d), _, _) => clamped(*d),
                    (None, Some(w), Some(wd)) => {
                        let same: Vec<Date> = (1..=date.days_in_month())
                            .map(|d| date.with().day(d).build().unwrap())
                            .filter(|d| d.weekday() == Weekday::from(*wd))
                            .collect();
                        let pick = if *w == -1 { same.last() } else { same.get(usize::try_from(*w - 1).unwrap()) };
                        pick == Some(&date)
                    }
                    _ => clamped(anchor.day()),
                }
        }
        Pattern::Yearly { interval } => {
            months % (12 * i64::from(*interval)) == 0 && date.month() == anchor.month() && clamped(anchor.day())
        }
        Pattern::None | Pattern::Hourly { .. } => unreachable!(),
    }
}

/// A deliberately naive reference: it walks every civil date from the
/// anchor and applies the definition directly (no jumping, no slack).
fn reference(s: &Schedule, from: Timestamp, count: usize) -> Vec<Timestamp> {
    let mut out: Vec<Timestamp> = Vec::new();
    let push = |t: Timestamp, out: &mut Vec<Timestamp>| {
        if t >= from && t >= s.send_at && out.last().is_none_or(|&last| t > last) {
            out.push(t);
        }
    };
    match &s.recurrence.pattern {
        Pattern::None => push(s.send_at, &mut out),
        Pattern::Hourly { interval_hours } => {
            let step = SignedDuration::from_hours(i64::from(*interval_hours));
            let mut t = s.send_at;
            while out.len() < count {
                push(t, &mut out);
                t += step;
            }
        }
        _ => {
            let anchor = s.send_at.to_zoned(s.tz.clone()).datetime();
            let mut date = anchor.date();
            while out.len() < count {
                if rule_matches(&s.recurrence, anchor.date(), date) {
                    let t = if date == anchor.date() {
                        s.send_at
                    } else {
                        s.tz.to_ambiguous_timestamp(date.to_datetime(anchor.time())).compatible().unwrap()
                    };
                    push(t, &mut out);
                }
                date = date.tomorrow().unwrap();
            }
        }
    }
    out
}

/// The invariants that every calendar occurrence must satisfy. `o` must
/// be `send_at` (on a matching date), or else come from an "intended"
/// civil date-time (a matching date after the anchor's, at the anchor's
/// time of day). The intended date-time is the occurrence's own local
/// time, or, if it fell in a gap, the local time less the gap's length.
/// A fold always takes the earlier instant.
fn check_calendar_occurrence(s: &Schedule, o: Timestamp) -> Result<(), TestCaseError> {
    let anchor = s.send_at.to_zoned(s.tz.clone()).datetime();
    let local = o.to_zoned(s.tz.clone()).datetime();
    if o == s.send_at {
        prop_assert!(rule_matches(&s.recurrence, anchor.date(), anchor.date()));
        return Ok(());
    }
    // A gap shift is at most 24 h, so the intended date is the local date
    // or the day before. Both can map to `o` (Apia's skipped day), so
    // take the one that matches the rule.
    let intended =
        [Some(local.date()), local.date().yesterday().ok()].into_iter().flatten().map(|d| d.to_datetime(anchor.time())).find(|&c| {
            c.date() > anchor.date()
                && rule_matches(&s.recurrence, anchor.date(), c.date())
                && s.tz.to_ambiguous_timestamp(c).compatible().ok() == Some(o)
        });
    let Some(intended) = intended else {
        return Err(TestCaseError::fail(format!(
            "{local} is not the anchor time {} on a matching date, shifted by a gap or not",
            anchor.time()
        )));
    };
    let ambiguity = s.tz.to_ambiguous_timestamp(intended);
    match ambiguity.offset() {
        AmbiguousOffset::Unambiguous { .. } => prop_assert_eq!(local, intended),
        AmbiguousOffset::Fold { .. } => {
            prop_assert_eq!(local, intended);
            prop_assert_eq!(Some(o), ambiguity.earlier().ok());
        }
        AmbiguousOffset::Gap { before, after } => {
            let gap = before.duration_until(after);
            let shift = intended.duration_until(local);
            prop_assert!(shift > SignedDuration::ZERO);
            prop_assert_eq!(shift, gap);
        }
    }
    // The spelled-out form of the rule checks, when not gap-shifted.
    if local == intended {
        prop_assert_eq!(local.time(), anchor.time());
        prop_assert!(rule_matches(&s.recurrence, anchor.date(), local.date()));
    }
    Ok(())
}

fn check_invariants(s: &Schedule, from: Timestamp, occ: &[Timestamp]) -> Result<(), TestCaseError> {
    for pair in occ.windows(2) {
        prop_assert!(pair[0] < pair[1], "not increasing: {pair:?}");
    }
    prop_assert_eq!(s.next_at_or_after(from), occ.first().copied());
    for (i, &o) in occ.iter().enumerate() {
        prop_assert!(o >= s.send_at && o >= from);
        prop_assert_eq!(o.subsec_nanosecond(), 0);
        prop_assert_eq!(s.next_at_or_after(o), Some(o));
        if let Some(&following) = occ.get(i + 1) {
            prop_assert_eq!(s.next_after(o), Some(following));
        }
    }
    match &s.recurrence.pattern {
        Pattern::None => {
            let expected: Vec<Timestamp> = Some(s.send_at).filter(|&t| t >= from).into_iter().collect();
            prop_assert_eq!(occ, &expected[..]);
            prop_assert_eq!(s.occurrences(Timestamp::MIN, 10), vec![s.send_at]);
        }
        Pattern::Hourly { interval_hours } => {
            let step = SignedDuration::from_hours(i64::from(*interval_hours));
            for pair in occ.windows(2) {
                prop_assert_eq!(pair[0].duration_until(pair[1]), step);
            }
            if let Some(&first) = occ.first() {
                let since = s.send_at.duration_until(first).as_secs();
                prop_assert_eq!(since % step.as_secs(), 0);
                if from > s.send_at {
                    prop_assert!(from.duration_until(first) < step);
                }
            }
        }
        _ => {
            for &o in occ {
                check_calendar_occurrence(s, o)?;
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Within a few years of send_at, the jumping iterator agrees with the naive reference.
    #[test]
    fn prop_matches_naive_reference(
        (tz, send_at) in send_at_strategy(),
        recurrence in recurrence_strategy(),
        from_offset in prop_oneof![-10 * DAY..=0, 0..=40 * DAY, 0..=3 * 366 * DAY],
    ) {
        let s = Schedule::new(send_at, tz, recurrence);
        let from = send_at + SignedDuration::from_secs(from_offset);
        let got = s.occurrences(from, 25);
        prop_assert_eq!(&got, &reference(&s, from, 25));
        check_invariants(&s, from, &got)?;
    }

    /// Up to 70 years later: the invariants hold wherever we start.
    #[test]
    fn prop_invariants_far_from_send_at(
        (tz, send_at) in send_at_strategy(),
        recurrence in recurrence_strategy(),
        from_offset in prop_oneof![-10 * DAY..=0, 0..=70 * 366 * DAY],
    ) {
        let s = Schedule::new(send_at, tz, recurrence);
        let from = send_at + SignedDuration::from_secs(from_offset);
        let got = s.occurrences(from, 20);
        match s.recurrence.pattern {
            Pattern::None => {}
            _ => prop_assert_eq!(got.len(), 20),
        }
        check_invariants(&s, from, &got)?;
    }

    /// Any representable input, including invalid rules: no panic, and the output is sane.
    #[test]
    fn prop_never_panics(
        zone_index in 0..ZONES.len(),
        send_at in Timestamp::MIN.as_second()..=Timestamp::MAX.as_second(),
        from in Timestamp::MIN.as_second()..=Timestamp::MAX.as_second(),
        near_end in any::<bool>(),
        recurrence in prop_oneof![
            recurrence_strategy(),
            any::<u8>().prop_map(hourly),
            (any::<u16>(), 0u8..=40).prop_map(|(interval, day)| Recurrence::of(Pattern::Monthly { interval, day: Some(day as i8), week: None, weekday: None })),
            any::<u16>().prop_map(|interval| Recurrence::of(Pattern::Custom { days: vec![Day::Mon], interval })),
            proptest::collection::vec(proptest::sample::select(Day::ALL.to_vec()), 0..10)
                .prop_map(|days| Recurrence::of(Pattern::Custom { days, interval: 1 })),
        ],
    ) {
        let tz = zone(ZONES[zone_index]);
        let send_at = Timestamp::from_second(send_at).unwrap();
        // Put `from` right by send_at, or at the top of the range, now and then.
        let from = if near_end {
            Timestamp::MAX - SignedDuration::from_secs(from.rem_euclid(40 * DAY))
        } else {
            Timestamp::from_second(from).unwrap()
        };
        let s = Schedule::new(send_at, tz, recurrence);
        let occ = s.occurrences(from, 5);
        for pair in occ.windows(2) {
            prop_assert!(pair[0] < pair[1]);
        }
        for &o in &occ {
            prop_assert!(o >= from && o >= send_at);
        }
        prop_assert_eq!(s.next_at_or_after(from), occ.first().copied());
        if let Some(&first) = occ.first() {
            prop_assert_eq!(s.next_after(first), occ.get(1).copied());
        }
    }
}
