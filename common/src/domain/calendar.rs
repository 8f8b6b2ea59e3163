//! The calendar feed: a user's active reminders as iCalendar (RFC 5545), so any calendar app
//! can show them. Each reminder is a VEVENT whose DTSTART carries the reminder's zone (with
//! a VTIMEZONE of that zone's offsets), whose RRULE is its pattern with its count or until,
//! and whose EXDATE/RDATE carry what Hibiki's own rules change: skipped dates, holidays
//! skipped or moved, an occurrence merged into another. A VALARM rings at the time.

#[cfg(test)]
use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::fmt::Write;

use jiff::civil::{DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp, Zoned};

use crate::domain::recurrence::{Day, Pattern, Recurrence, Schedule, Shape};
use crate::domain::reminder::Reminder;
use crate::domain::states::Language;

/// How far the feed spells out EXDATE/RDATE (and the VTIMEZONE's changes): calendar apps
/// look at the coming months.
const WINDOW_BACK: SignedDuration = SignedDuration::from_hours(24 * 31);
const WINDOW_AHEAD: SignedDuration = SignedDuration::from_hours(24 * 400);
/// A rule that rings every few hours spells its dates out over a shorter window: the feed of
/// an account at its limits (100 hourly reminders that skip holidays) stays far under 1 MiB.
const FREQUENT_WINDOW_BACK: SignedDuration = SignedDuration::from_hours(24 * 2);
const FREQUENT_WINDOW_AHEAD: SignedDuration = SignedDuration::from_hours(24 * 14);
/// Occurrences compared per reminder within the window.
const MAX_COMPARED: usize = 800;

/// What the feed says of each reminder.
pub struct FeedOptions<'a> {
    /// For UIDs: `{reminder id}@{host}`.
    pub host: &'a str,
    pub language: Language,
    /// "Hide notification content": every event is only "Reminder".
    pub hide_content: bool,
    pub now: Timestamp,
}

/// The feed of these reminders (archived ones are left out).
pub fn feed(reminders: &[Reminder], options: &FeedOptions<'_>) -> String {
    let mut out = Lines::default();
    out.line("BEGIN:VCALENDAR");
    out.line("VERSION:2.0");
    out.line("PRODID:-//Hibiki//Reminders//EN");
    out.line("CALSCALE:GREGORIAN");
    out.line("METHOD:PUBLISH");
    out.property("X-WR-CALNAME", if options.language == Language::Ja { "Hibiki リマインダー" } else { "Hibiki reminders" });
    let mut zones = BTreeSet::new();
    let mut events = Lines::default();
    for r in reminders.iter().filter(|r| r.is_active && !r.is_archived) {
        if let Some(zone) = event(&mut events, r, options) {
            zones.insert(zone);
        }
    }
    for zone in zones {
        vtimezone(&mut out, &zone, options.now);
    }
    out.0.push_str(&events.0);
    out.line("END:VCALENDAR");
    out.0
}

/// Writes the reminder's VEVENT; answers the zone its times name (None for UTC times).
fn event(out: &mut Lines, r: &Reminder, options: &FeedOptions<'_>) -> Option<String> {
    let tz = r.timezone.tz().clone();
    let hourly = matches!(r.recurrence.pattern, Pattern::Hourly { .. });
    let zone = (!hourly && tz.iana_name().is_some_and(|n| n != "UTC")).then(|| r.timezone.name().to_owned());
    let anchor = r.send_at.to_zoned(tz.clone());
    // The pattern alone, with its end: what an RFC 5545 reader computes from the RRULE.
    let plain = Recurrence {
        pattern: r.recurrence.pattern.clone(),
        shape: Shape { until: r.recurrence.shape.until, count: r.recurrence.shape.count, ..Shape::default() },
    };
    let plain_schedule = Schedule::new(r.send_at, tz.clone(), plain);
    let shaped_schedule = Schedule::new(r.send_at, tz.clone(), r.recurrence.clone());
    // DTSTART is the first occurrence of the pattern (RFC 5545 counts DTSTART as one).
    let first = plain_schedule.next_at_or_after(r.send_at)?;
    let first_local = first.to_zoned(tz.clone()).date().to_datetime(anchor.time());

    out.line("BEGIN:VEVENT");
    out.property("UID", &format!("{}@{}", r.id, options.host));
    out.line(&format!("DTSTAMP:{}", utc(r.updated_at)));
    out.line(&match (&zone, hourly) {
        (_, true) | (None, _) => format!("DTSTART:{}", utc(first)),
        (Some(z), false) => format!("DTSTART;TZID={z}:{}", local(first_local)),
    });
    let (summary, description) = if options.hide_content {
        (if options.language == Language::Ja { "リマインダー" } else { "Reminder" }.to_owned(), None)
    } else {
        (r.title.clone(), r.description.clone().filter(|d| !d.trim().is_empty()))
    };
    out.property("SUMMARY", &summary);
    if let Some(d) = &description {
        out.property("DESCRIPTION", d);
    }
    if let Some(rule) = rrule(&r.recurrence, &anchor, &tz) {
        out.line(&format!("RRULE:{rule}"));
        // What Hibiki's rules change within the window: EXDATE what they drop, RDATE what
        // they add (a holiday move is both).
        let (back, ahead) = if hourly { (FREQUENT_WINDOW_BACK, FREQUENT_WINDOW_AHEAD) } else { (WINDOW_BACK, WINDOW_AHEAD) };
        let from = (options.now - back).max(r.send_at);
        let until = options.now + ahead;
        let within = |s: &Schedule| -> BTreeSet<Timestamp> { s.iter_from(from).take_while(|t| *t <= until).take(MAX_COMPARED).collect() };
        let (plain, shaped) = (within(&plain_schedule), within(&shaped_schedule));
        let as_value = |t: &Timestamp| match (&zone, hourly) {
            (Some(_), false) => local(t.to_zoned(tz.clone()).date().to_datetime(anchor.time())),
            _ => utc(*t),
        };
        let prefix = match (&zone, hourly) {
            (Some(z), false) => format!(";TZID={z}"),
            _ => String::new(),
        };
        let dropped: Vec<String> = plain.difference(&shaped).map(as_value).collect();
        let added: Vec<String> = shaped.difference(&plain).map(as_value).collect();
        if !dropped.is_empty() {
            out.line(&format!("EXDATE{prefix}:{}", dropped.join(",")));
        }
        if !added.is_empty() {
            out.line(&format!("RDATE{prefix}:{}", added.join(",")));
        }
    }
    // A VALARM at the time (the occurrence always rings) and one per alert before it.
    let befores = r.alerts.iter().map(|a| a.before_minutes).filter(|m| *m > 0);
    for before in std::iter::once(0).chain(befores) {
        out.line("BEGIN:VALARM");
        out.line("ACTION:DISPLAY");
        out.line(&if before == 0 { "TRIGGER:PT0S".to_owned() } else { format!("TRIGGER:-PT{before}M") });
        out.property("DESCRIPTION", &summary);
        out.line("END:VALARM");
    }
    out.line("END:VEVENT");
    zone
}

/// The pattern and its end as an RRULE (None for a one-time reminder).
fn rrule(recurrence: &Recurrence, anchor: &Zoned, tz: &TimeZone) -> Option<String> {
    let by_month_day = |day: i8| match day {
        -1 => "BYMONTHDAY=-1".to_owned(),
        1..=28 => format!("BYMONTHDAY={day}"),
        // A day the month lacks is its last day: the last of 28..day that exists.
        _ => format!("BYMONTHDAY={};BYSETPOS=-1", (28..=day).map(|d| d.to_string()).collect::<Vec<_>>().join(",")),
    };
    let interval = |n: u16| if n > 1 { format!(";INTERVAL={n}") } else { String::new() };
    let mut rule = match &recurrence.pattern {
        Pattern::None => return None,
        Pattern::Hourly { interval_hours } => format!("FREQ=HOURLY{}", interval(u16::from(*interval_hours))),
        Pattern::Daily { interval: n } => format!("FREQ=DAILY{}", interval(*n)),
        Pattern::Weekly { interval: n } => format!("FREQ=WEEKLY{};WKST=MO", interval(*n)),
        Pattern::Weekdays => "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;WKST=MO".to_owned(),
        Pattern::Custom { days, interval: n } => {
            let mut days = days.clone();
            days.sort();
            days.dedup();
            format!("FREQ=WEEKLY{};BYDAY={};WKST=MO", interval(*n), days.iter().map(|d| ical_day(*d)).collect::<Vec<_>>().join(","))
        }
        Pattern::Monthly { interval: n, day, week, weekday } => match (day, week, weekday) {
            (Some(d), _, _) => format!("FREQ=MONTHLY{};{}", interval(*n), by_month_day(*d)),
            (None, Some(w), Some(wd)) => format!("FREQ=MONTHLY{};BYDAY={w}{}", interval(*n), ical_day(*wd)),
            _ => format!("FREQ=MONTHLY{};{}", interval(*n), by_month_day(anchor.day())),
        },
        Pattern::Yearly { interval: n } => {
            let day = if (anchor.month(), anchor.day()) == (2, 29) { by_month_day(29) } else { format!("BYMONTHDAY={}", anchor.day()) };
            format!("FREQ=YEARLY{};BYMONTH={};{day}", interval(*n), anchor.month())
        }
    };
    if let Some(count) = recurrence.shape.count {
        let _ = write!(rule, ";COUNT={count}");
    }
    if let Some(until) = recurrence.shape.until {
        // The end of that local date, in UTC (RFC 5545 wants UTC when DTSTART has a zone).
        let end = until.to_datetime(Time::MAX).to_zoned(tz.clone()).map(|z| z.timestamp()).unwrap_or(Timestamp::MAX);
        let _ = write!(rule, ";UNTIL={}", utc(end));
    }
    Some(rule)
}

fn ical_day(day: Day) -> &'static str {
    match day {
        Day::Mon => "MO",
        Day::Tue => "TU",
        Day::Wed => "WE",
        Day::Thu => "TH",
        Day::Fri => "FR",
        Day::Sat => "SA",
        Day::Sun => "SU",
    }
}

/// The zone's offsets around the feed's window: one observance per change (and the offset
/// in force at its start), so readers without the IANA database compute the same instants.
fn vtimezone(out: &mut Lines, name: &str, now: Timestamp) {
    let Ok(tz) = TimeZone::get(name) else { return };
    let start = now - WINDOW_BACK - SignedDuration::from_hours(24 * 366 * 2);
    let end = now + WINDOW_AHEAD + SignedDuration::from_hours(24 * 366);
    out.line("BEGIN:VTIMEZONE");
    out.property("TZID", name);
    let info = tz.to_offset_info(start);
    let observance = |out: &mut Lines, dst: bool, at: DateTime, from: jiff::tz::Offset, to: jiff::tz::Offset, abbreviation: &str| {
        let kind = if dst { "DAYLIGHT" } else { "STANDARD" };
        out.line(&format!("BEGIN:{kind}"));
        out.line(&format!("DTSTART:{}", local(at)));
        out.line(&format!("TZOFFSETFROM:{}", offset(from)));
        out.line(&format!("TZOFFSETTO:{}", offset(to)));
        out.property("TZNAME", abbreviation);
        out.line(&format!("END:{kind}"));
    };
    let first = info.offset();
    observance(out, info.dst().is_dst(), first.to_datetime(start), first, first, info.abbreviation());
    let mut before = first;
    for t in tz.following(start).take_while(|t| t.timestamp() <= end) {
        observance(out, t.dst().is_dst(), before.to_datetime(t.timestamp()), before, t.offset(), t.abbreviation());
        before = t.offset();
    }
    out.line("END:VTIMEZONE");
}

fn offset(o: jiff::tz::Offset) -> String {
    let secs = o.seconds();
    let sign = if secs < 0 { '-' } else { '+' };
    let abs = secs.unsigned_abs();
    if abs.is_multiple_of(60) {
        format!("{sign}{:02}{:02}", abs / 3600, abs / 60 % 60)
    } else {
        format!("{sign}{:02}{:02}{:02}", abs / 3600, abs / 60 % 60, abs % 60)
    }
}

fn utc(t: Timestamp) -> String {
    t.strftime("%Y%m%dT%H%M%SZ").to_string()
}

fn local(dt: DateTime) -> String {
    dt.strftime("%Y%m%dT%H%M%S").to_string()
}

/// Content lines: CRLF ends, text values escaped, lines folded at 75 octets (RFC 5545 3.1).
#[derive(Default)]
struct Lines(String);

impl Lines {
    fn line(&mut self, line: &str) {
        let mut rest = line;
        let mut first = true;
        while !rest.is_empty() {
            let room = if first { 75 } else { 74 };
            let mut cut = rest.len().min(room);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            if !first {
                self.0.push(' ');
            }
            self.0.push_str(&rest[..cut]);
            self.0.push_str("\r\n");
            rest = &rest[cut..];
            first = false;
        }
    }

    fn property(&mut self, name: &str, text: &str) {
        let mut escaped = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '\\' => escaped.push_str("\\\\"),
                ';' => escaped.push_str("\\;"),
                ',' => escaped.push_str("\\,"),
                '\n' => escaped.push_str("\\n"),
                '\r' => {}
                c => escaped.push(c),
            }
        }
        self.line(&format!("{name}:{escaped}"));
    }
}

/// The dates a reminder's feed names, for tests: the zone's local dates of its occurrences.
#[cfg(test)]
fn dates(feed: &str, property: &str) -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let unfolded = feed.replace("\r\n ", "");
    for line in unfolded.split("\r\n").filter(|l| l.starts_with(property)) {
        let (key, values) = line.split_once(':').unwrap();
        found.entry(key.to_owned()).or_default().extend(values.split(',').map(str::to_owned));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::{ReminderId, UserId};
    use crate::domain::reminder::ReminderStatus;

    fn reminder(title: &str, send_at: &str, tz: &str, rule: &str) -> Reminder {
        let send_at: Timestamp = send_at.parse().unwrap();
        Reminder {
            id: ReminderId::from(uuid::Uuid::from_u128(1)),
            user_id: UserId::from(uuid::Uuid::from_u128(2)),
            title: title.into(),
            description: Some("line one\nline; two, three".into()),
            send_at,
            timezone: crate::domain::zone::Zone::parse(tz).unwrap(),
            recurrence: serde_json::from_str(rule).unwrap(),
            send_to: None,
            metadata: None,
            scheduled_at: Some(send_at),
            snoozed_until: None,
            overdue: false,
            alerts: crate::domain::alarms::default_alerts(),
            repeat_until_done: None,
            is_active: true,
            is_archived: false,
            status: ReminderStatus::Pending,
            created_at: send_at,
            updated_at: send_at,
            list_id: crate::domain::ids::ListId::from(uuid::Uuid::from_u128(3)),
            assignees: Vec::new(),
            rotate: false,
            break_through: false,
            created_by: UserId::from(uuid::Uuid::from_u128(2)),
        }
    }

    fn options(hide_content: bool) -> FeedOptions<'static> {
        FeedOptions { host: "hibiki.example", language: Language::Ja, hide_content, now: "2026-09-01T00:00:00Z".parse().unwrap() }
    }

    #[test]
    fn a_holiday_move_is_an_exdate_and_an_rdate_and_text_is_escaped_and_folded() {
        let r = reminder(
            &"とても長いタイトル".repeat(6),
            "2026-09-18T09:00:00+09:00",
            "Asia/Tokyo",
            r#"{"kind":"daily","holidays":"next_business_day","count":30}"#,
        );
        let feed = feed(&[r], &options(false));
        assert!(feed.starts_with("BEGIN:VCALENDAR\r\n") && feed.ends_with("END:VCALENDAR\r\n"));
        assert!(feed.split("\r\n").all(|l| l.len() <= 75), "folded at 75 octets");
        assert!(feed.contains("DTSTART;TZID=Asia/Tokyo:20260918T090000\r\n"));
        assert!(feed.contains("RRULE:FREQ=DAILY;COUNT=30\r\n"));
        assert!(feed.contains("DESCRIPTION:line one\\nline\\; two\\, three\r\n"));
        assert!(feed.contains("BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo\r\n"));
        let exdates = dates(&feed, "EXDATE");
        // The weekend of 19-20 September and the holidays of 21-23 move to the 24th, which
        // already has one: five dates dropped, nothing added for them.
        let tokyo = &exdates["EXDATE;TZID=Asia/Tokyo"];
        for d in ["20260919T090000", "20260920T090000", "20260921T090000", "20260922T090000", "20260923T090000"] {
            assert!(tokyo.contains(&d.to_owned()), "{d} in {tokyo:?}");
        }
        assert!(!feed.contains("RDATE;TZID=Asia/Tokyo:20260924"), "the 24th is an occurrence already");
        // 2026-10-10/11 are a weekend and 10-12 スポーツの日: they move to the 13th, which a
        // daily rule has already: dropped, and nothing added for them. The 30 times then end
        // on the 19th, past the RRULE's COUNT (the 17th): that one is added.
        let rdates = dates(&feed, "RDATE");
        assert_eq!(rdates["RDATE;TZID=Asia/Tokyo"], ["20261019T090000"], "{rdates:?}");

        // Weekly on Mondays: 10-12 スポーツの日 moves to Tuesday the 13th, which the rule does
        // not have: an EXDATE for the Monday and an RDATE for the Tuesday.
        let weekly =
            reminder("週次", "2026-09-07T09:00:00+09:00", "Asia/Tokyo", r#"{"kind":"weekly","holidays":"next_business_day","count":10}"#);
        let feed = super::feed(&[weekly], &options(false));
        let rdates = dates(&feed, "RDATE");
        let exdates = dates(&feed, "EXDATE");
        assert!(rdates["RDATE;TZID=Asia/Tokyo"].contains(&"20261013T090000".to_owned()), "{rdates:?}");
        assert!(exdates["EXDATE;TZID=Asia/Tokyo"].contains(&"20261012T090000".to_owned()), "{exdates:?}");
        // 9-21 敬老の日 (Monday) moves to the 24th: 22 and 23 are holidays too (国民の休日, 秋分の日).
        assert!(rdates["RDATE;TZID=Asia/Tokyo"].contains(&"20260924T090000".to_owned()), "{rdates:?}");
        assert!(rdates.values().flatten().all(|d| d.ends_with("T090000")), "{rdates:?}");
    }

    #[test]
    fn hidden_content_and_one_time_reminders() {
        let r = reminder("歯医者", "2026-09-18T09:00:00+09:00", "Asia/Tokyo", r#"{"kind":"none"}"#);
        let mut r = r;
        r.alerts = vec![crate::domain::alarms::Alert { before_minutes: 1440 }];
        let feed = feed(&[r], &options(true));
        assert!(feed.contains("SUMMARY:リマインダー\r\n"));
        assert!(feed.contains("TRIGGER:-PT1440M\r\n") && feed.contains("TRIGGER:PT0S\r\n"), "a VALARM per alert");
        assert!(!feed.contains("歯医者") && !feed.contains("DESCRIPTION:line"));
        assert!(!feed.contains("RRULE"));
        assert!(feed.contains("TRIGGER:PT0S"));
    }

    #[test]
    fn rules_spell_hibikis_semantics() {
        let anchor = |s: &str, tz: &str| s.parse::<Timestamp>().unwrap().to_zoned(TimeZone::get(tz).unwrap());
        let rule = |json: &str, at: &str| {
            rrule(&serde_json::from_str(json).unwrap(), &anchor(at, "Asia/Tokyo"), &TimeZone::get("Asia/Tokyo").unwrap()).unwrap()
        };
        assert_eq!(rule(r#"{"kind":"monthly"}"#, "2026-01-31T09:00:00+09:00"), "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1");
        assert_eq!(
            rule(r#"{"kind":"monthly","week":-1,"weekday":"fri","interval":2}"#, "2026-01-01T09:00:00+09:00"),
            "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR"
        );
        assert_eq!(rule(r#"{"kind":"yearly"}"#, "2028-02-29T09:00:00+09:00"), "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1");
        assert_eq!(
            rule(r#"{"kind":"custom","days":["thu","tue"],"interval":2}"#, "2026-01-01T09:00:00+09:00"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=MO"
        );
        assert_eq!(rule(r#"{"kind":"daily","until":"2026-12-31"}"#, "2026-01-01T09:00:00+09:00"), "FREQ=DAILY;UNTIL=20261231T145959Z");
    }
}
