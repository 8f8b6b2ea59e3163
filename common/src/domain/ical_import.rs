//! Reading iCalendar (RFC 5545) files into reminders: VEVENT and VTODO with DTSTART or DUE,
//! RRULE, EXDATE, VALARM and time zones, as Google Calendar, Apple Reminders and Todoist
//! write them. A rule is taken only when Hibiki's schedule gives exactly the dates RFC 5545
//! does; anything else is skipped as `unsupported_rule`, never approximated.
//!
//! The file's syntax (line unfolding, parameters, quoting) is read by the `icalendar` crate;
//! this module reads what the properties mean.

use std::collections::{BTreeMap, BTreeSet};

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp};

use crate::domain::alarms::{Alert, MAX_ALERTS, MAX_BEFORE_MINUTES};
use crate::domain::recurrence::{Day, MAX_SKIPS, Pattern, Recurrence, Schedule, Shape};
use crate::domain::reminder::{MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS, ReminderInput};
use crate::domain::transfer::{Candidate, Reading, SkipReason, SkippedItem};
use crate::domain::zone::Zone;

/// A property as the file has it: upper-case name and parameter names, the raw value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prop {
    pub name: String,
    pub params: BTreeMap<String, String>,
    pub value: String,
}

/// A component (VEVENT, VTODO, VALARM, VTIMEZONE...) with its properties and children.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Component {
    pub name: String,
    pub props: Vec<Prop>,
    pub children: Vec<Component>,
}

impl Component {
    fn prop(&self, name: &str) -> Option<&Prop> {
        self.props.iter().find(|p| p.name == name)
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Prop> + 'a {
        self.props.iter().filter(move |p| p.name == name)
    }
}

/// Components deeper than this (a VALARM in a VEVENT in a VCALENDAR is 3) are not a calendar
/// anyone exports: the parser recurses per level, so a file of nested BEGINs is refused first.
const MAX_DEPTH: usize = 8;

/// Whether BEGIN lines nest deeper than [`MAX_DEPTH`].
fn too_deep(text: &str) -> bool {
    let mut depth = 0usize;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        let upper = |prefix: &str| line.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix));
        if upper("BEGIN:") {
            depth += 1;
            if depth > MAX_DEPTH {
                return true;
            }
        } else if upper("END:") {
            depth = depth.saturating_sub(1);
        }
    }
    false
}

/// Parses the file's syntax; `None` when it is not iCalendar.
pub fn parse(text: &str) -> Option<Vec<Component>> {
    // Unfolded first: a BEGIN folded over two lines is a BEGIN too.
    let unfolded = icalendar::parser::unfold(text);
    if too_deep(&unfolded) {
        return None;
    }
    let calendar = icalendar::parser::read_calendar(&unfolded).ok()?;
    fn convert(c: &icalendar::parser::Component<'_>) -> Component {
        Component {
            name: c.name.as_str().to_ascii_uppercase(),
            props: c
                .properties
                .iter()
                .map(|p| Prop {
                    name: p.name.as_str().to_ascii_uppercase(),
                    params: p
                        .params
                        .iter()
                        .map(|q| {
                            (
                                q.key.as_str().to_ascii_uppercase(),
                                q.val.as_ref().map(|v| v.as_str().trim_matches('"').to_owned()).unwrap_or_default(),
                            )
                        })
                        .collect(),
                    value: p.val.as_str().to_owned(),
                })
                .collect(),
            children: c.components.iter().map(convert).collect(),
        }
    }
    let mut out: Vec<Component> = calendar.components.iter().map(convert).collect();
    // A file of several VCALENDARs, or components at the top: look one level into each.
    let mut nested = Vec::new();
    for c in &out {
        if c.name == "VCALENDAR" {
            nested.extend(c.children.iter().cloned());
        }
    }
    out.retain(|c| c.name != "VCALENDAR");
    out.extend(nested);
    Some(out)
}

/// What the reading needs of the importing person.
#[derive(Debug, Clone)]
pub struct Context {
    /// Their zone: for floating and UTC times, and all-day items.
    pub zone: Zone,
    /// When an all-day item rings (their "morning" time).
    pub all_day_at: Time,
    pub now: Timestamp,
}

/// Reads the events and to-dos of a parsed file.
pub fn read(components: &[Component], cx: &Context) -> Reading {
    let zones = vtimezone_locations(components);
    let items: Vec<&Component> = components.iter().filter(|c| c.name == "VEVENT" || c.name == "VTODO").collect();
    // Changed instances of a series (RECURRENCE-ID): their originals are left out of the
    // series, and each is an item of its own.
    let mut overridden: BTreeMap<String, Vec<&Prop>> = BTreeMap::new();
    for c in &items {
        if let (Some(uid), Some(rid)) = (c.prop("UID"), c.prop("RECURRENCE-ID")) {
            overridden.entry(uid.value.clone()).or_default().push(rid);
        }
    }
    let mut reading = Reading::default();
    for (index, c) in items.iter().enumerate() {
        let uid = c.prop("UID").map(|p| p.value.clone());
        let item = match (&uid, c.prop("RECURRENCE-ID")) {
            (Some(u), Some(rid)) => format!("{u} ({})", rid.value),
            (Some(u), None) => u.clone(),
            (None, _) => format!("#{}", index + 1),
        };
        let extra_skips = match (&uid, c.prop("RECURRENCE-ID")) {
            (Some(u), None) => overridden.get(u).cloned().unwrap_or_default(),
            _ => Vec::new(),
        };
        match read_item(c, &extra_skips, &zones, cx) {
            Ok(input) => reading.candidates.push(Candidate { item, input, list: None }),
            Err((reason, detail)) => {
                let title = c.prop("SUMMARY").map(|p| text(&p.value)).filter(|t| !t.is_empty());
                reading.skipped.push(SkippedItem::new(item, title, reason, detail));
            }
        }
    }
    reading
}

type Skip = (SkipReason, String);

fn skip<T>(reason: SkipReason, detail: impl Into<String>) -> Result<T, Skip> {
    Err((reason, detail.into()))
}

/// A VTIMEZONE's TZID → the IANA zone it is (its own name, or `X-LIC-LOCATION`).
fn vtimezone_locations(components: &[Component]) -> BTreeMap<String, String> {
    components
        .iter()
        .filter(|c| c.name == "VTIMEZONE")
        .filter_map(|c| {
            let id = c.prop("TZID")?.value.clone();
            let location = c.prop("X-LIC-LOCATION").map(|p| p.value.clone()).unwrap_or_else(|| id.clone());
            Some((id, location))
        })
        .collect()
}

/// A date-time value as written: an instant (UTC or in a zone), a floating local time, or a
/// date alone.
#[derive(Debug, Clone, PartialEq)]
enum When {
    Instant(Timestamp),
    Zoned(DateTime, Zone),
    Floating(DateTime),
    Date(Date),
}

fn zone_of(tzid: &str, zones: &BTreeMap<String, String>) -> Option<Zone> {
    let name = zones.get(tzid).map(String::as_str).unwrap_or(tzid);
    // Some writers put a path before the IANA name ("/mozilla.org/20050126_1/Asia/Tokyo").
    Zone::parse(name).or_else(|| {
        let parts: Vec<&str> = name.split('/').collect();
        (1..parts.len()).find_map(|i| Zone::parse(&parts[i..].join("/")))
    })
}

fn when(p: &Prop, zones: &BTreeMap<String, String>) -> Result<When, Skip> {
    let value = p.value.trim();
    if p.params.get("VALUE").is_some_and(|v| v.eq_ignore_ascii_case("DATE")) || value.len() == 8 {
        return Date::strptime("%Y%m%d", value).map(When::Date).or_else(|_| skip(SkipReason::Invalid, format!("{}: not a date", p.name)));
    }
    let (local, utc) = match value.strip_suffix('Z') {
        Some(v) => (v, true),
        None => (value, false),
    };
    let dt = DateTime::strptime("%Y%m%dT%H%M%S", local).or_else(|_| skip(SkipReason::Invalid, format!("{}: not a date-time", p.name)))?;
    if utc {
        return dt.to_zoned(TimeZone::UTC).map(|z| When::Instant(z.timestamp())).or_else(|_| skip(SkipReason::Invalid, "out of range"));
    }
    match p.params.get("TZID") {
        Some(tzid) => match zone_of(tzid, zones) {
            Some(zone) => Ok(When::Zoned(dt, zone)),
            None => skip(SkipReason::Invalid, format!("unknown time zone {tzid:?}")),
        },
        None => Ok(When::Floating(dt)),
    }
}

/// RFC 5545 text: `\n`, `\,`, `\;` and `\\` unescaped.
fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

fn read_item(c: &Component, overridden: &[&Prop], zones: &BTreeMap<String, String>, cx: &Context) -> Result<ReminderInput, Skip> {
    let todo = c.name == "VTODO";
    if todo && (c.prop("COMPLETED").is_some() || c.prop("STATUS").is_some_and(|s| s.value.eq_ignore_ascii_case("COMPLETED"))) {
        return skip(SkipReason::Past, "completed");
    }
    if c.prop("STATUS").is_some_and(|s| s.value.eq_ignore_ascii_case("CANCELLED")) {
        return skip(SkipReason::Past, "cancelled");
    }
    let title = clip(text(c.prop("SUMMARY").map(|p| p.value.as_str()).unwrap_or_default()).trim(), MAX_TITLE_CHARS);
    if title.is_empty() {
        return skip(SkipReason::Invalid, "no SUMMARY");
    }
    let description = c.prop("DESCRIPTION").map(|p| clip(text(&p.value).trim(), MAX_DESCRIPTION_CHARS)).filter(|d| !d.is_empty());
    // A to-do is due at DUE; an event (or a to-do without DUE) starts at DTSTART.
    let start = if todo { c.prop("DUE").or_else(|| c.prop("DTSTART")) } else { c.prop("DTSTART") };
    let Some(start) = start else { return skip(SkipReason::Invalid, "no DTSTART or DUE") };
    let (anchor, zone, all_day) = match when(start, zones)? {
        // A rule on a UTC time repeats in UTC (its weekdays and month days are UTC's); a
        // single UTC time is shown in the person's zone.
        When::Instant(t) if c.prop("RRULE").is_some() => (t, Zone::utc(), false),
        When::Instant(t) => (t, cx.zone.clone(), false),
        When::Zoned(dt, zone) => (local_instant(dt, &zone)?, zone, false),
        When::Floating(dt) => (local_instant(dt, &cx.zone)?, cx.zone.clone(), false),
        When::Date(d) => (local_instant(d.to_datetime(cx.all_day_at), &cx.zone)?, cx.zone.clone(), true),
    };
    if c.prop("RDATE").is_some() || c.prop("EXRULE").is_some() {
        return skip(SkipReason::UnsupportedRule, "RDATE/EXRULE");
    }
    let rrules: Vec<&Prop> = c.all("RRULE").collect();
    if rrules.len() > 1 {
        return skip(SkipReason::UnsupportedRule, "more than one RRULE");
    }
    let recurrence = match rrules.first() {
        None => Recurrence::once(),
        Some(rule) => {
            let mut recurrence = rule_of(&rule.value, anchor, &zone, all_day, zones)?;
            recurrence.shape.skip = skipped_dates(c, overridden, &zone, zones, cx.now)?;
            recurrence
        }
    };
    let schedule = Schedule::new(anchor, zone.tz().clone(), recurrence.clone());
    if !recurrence.is_one_time() {
        // RFC 5545 counts DTSTART as the first instance even when the rule would not give it;
        // Hibiki's schedule starts at the rule's first date: they agree only when it is one.
        let plain = Recurrence { pattern: recurrence.pattern.clone(), shape: Shape::default() };
        if Schedule::new(anchor, zone.tz().clone(), plain).next_at_or_after(anchor) != Some(anchor) {
            return skip(SkipReason::UnsupportedRule, "DTSTART is not one of the rule's dates");
        }
    }
    if schedule.next_after(cx.now).is_none() {
        return skip(SkipReason::Past, if recurrence.is_one_time() { "its time has passed" } else { "the series has ended" });
    }
    Ok(ReminderInput {
        title,
        description,
        send_at: anchor,
        timezone: Some(zone.name().to_owned()),
        recurrence: Some(recurrence),
        alerts: Some(alerts(c)),
        repeat_until_done: None,
        send_to: None,
        metadata: None,
        list_id: None,
        assignees: None,
        rotate: None,
        break_through: None,
    })
}

fn local_instant(dt: DateTime, zone: &Zone) -> Result<Timestamp, Skip> {
    // RFC 5545: a time a DST gap skips is read with the offset before the gap (it moves
    // forward by the gap), a repeated one is the first: jiff's "compatible" reading.
    dt.to_zoned(zone.tz().clone()).map(|z| z.timestamp()).or_else(|_| skip(SkipReason::Invalid, "out of range"))
}

/// The VALARMs as alerts before the start (minutes); none usable: at the time itself.
fn alerts(c: &Component) -> Vec<Alert> {
    let mut minutes = BTreeSet::new();
    for alarm in c.children.iter().filter(|a| a.name == "VALARM") {
        let Some(trigger) = alarm.prop("TRIGGER") else { continue };
        // Absolute triggers and those relative to the end are not alerts before the start.
        if trigger.params.get("VALUE").is_some_and(|v| v.eq_ignore_ascii_case("DATE-TIME"))
            || trigger.params.get("RELATED").is_some_and(|v| v.eq_ignore_ascii_case("END"))
        {
            continue;
        }
        if let Some(before) = minutes_before(&trigger.value) {
            minutes.insert(before);
        }
    }
    let mut list: Vec<Alert> = minutes.into_iter().take(MAX_ALERTS).map(|before_minutes| Alert { before_minutes }).collect();
    if list.is_empty() {
        list.push(Alert { before_minutes: 0 });
    }
    list
}

/// `-PT15M` → 15; `PT0S` → 0; a trigger after the start, or further than a week: none.
fn minutes_before(duration: &str) -> Option<u32> {
    let span: Span = duration.trim().parse().ok()?;
    let minutes = span.get_weeks() as i64 * 10_080 + span.get_days() as i64 * 1_440 + span.get_hours() as i64 * 60 + span.get_minutes();
    let seconds = span.get_seconds();
    if seconds.rem_euclid(60) != 0 {
        return None;
    }
    let total = minutes + seconds / 60;
    let before = if span.signum() < 0 {
        total.abs()
    } else if total == 0 {
        0
    } else {
        return None;
    };
    u32::try_from(before).ok().filter(|m| *m <= MAX_BEFORE_MINUTES)
}

/// The local dates EXDATE (and the changed instances) take out of a series; only those from
/// yesterday on matter, and Hibiki keeps at most [`MAX_SKIPS`].
fn skipped_dates(
    c: &Component,
    overridden: &[&Prop],
    zone: &Zone,
    zones: &BTreeMap<String, String>,
    now: Timestamp,
) -> Result<Vec<Date>, Skip> {
    let today = now.to_zoned(zone.tz().clone()).date();
    let mut dates = BTreeSet::new();
    let props = c.all("EXDATE").chain(overridden.iter().copied());
    for p in props {
        // One EXDATE may list several values, sharing its parameters.
        for value in p.value.split(',') {
            let one = Prop { name: p.name.clone(), params: p.params.clone(), value: value.trim().to_owned() };
            let date = match when(&one, zones)? {
                When::Instant(t) => t.to_zoned(zone.tz().clone()).date(),
                When::Zoned(dt, z) => local_instant(dt, &z)?.to_zoned(zone.tz().clone()).date(),
                When::Floating(dt) => dt.date(),
                When::Date(d) => d,
            };
            if date >= today.yesterday().unwrap_or(today) {
                dates.insert(date);
            }
        }
    }
    if dates.len() > MAX_SKIPS {
        return skip(SkipReason::UnsupportedRule, format!("more than {MAX_SKIPS} excluded dates"));
    }
    Ok(dates.into_iter().collect())
}

fn day_of(code: &str) -> Option<Day> {
    Some(match code {
        "MO" => Day::Mon,
        "TU" => Day::Tue,
        "WE" => Day::Wed,
        "TH" => Day::Thu,
        "FR" => Day::Fri,
        "SA" => Day::Sat,
        "SU" => Day::Sun,
        _ => return None,
    })
}

/// `2TU` → (Some(2), Tue); `MO` → (None, Mon).
fn nth_day(text: &str) -> Option<(Option<i8>, Day)> {
    let split = text.len().checked_sub(2)?;
    let day = day_of(&text[split..])?;
    let n = &text[..split];
    if n.is_empty() {
        return Some((None, day));
    }
    n.trim_start_matches('+').parse::<i8>().ok().filter(|n| *n != 0).map(|n| (Some(n), day))
}

/// An RRULE as a Hibiki recurrence, when it is exactly one.
fn rule_of(value: &str, anchor: Timestamp, zone: &Zone, all_day: bool, zones: &BTreeMap<String, String>) -> Result<Recurrence, Skip> {
    let mut parts: BTreeMap<String, String> = BTreeMap::new();
    for part in value.split(';').filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else { return skip(SkipReason::Invalid, format!("RRULE part {part:?}")) };
        parts.insert(k.trim().to_ascii_uppercase(), v.trim().to_ascii_uppercase());
    }
    let unsupported = |what: &str| skip::<Recurrence>(SkipReason::UnsupportedRule, what.to_owned());
    let local = anchor.to_zoned(zone.tz().clone());
    let interval: u16 = match parts.remove("INTERVAL") {
        Some(n) => n.parse().ok().filter(|n| *n >= 1).map_or_else(|| skip(SkipReason::Invalid, "INTERVAL"), Ok)?,
        None => 1,
    };
    let count = match parts.remove("COUNT") {
        Some(n) => match n.parse::<u16>() {
            Ok(n @ 1..=1000) => Some(n),
            _ => return unsupported("COUNT over 1000"),
        },
        None => None,
    };
    let freq = parts.remove("FREQ").unwrap_or_default();
    let until = match parts.remove("UNTIL") {
        None => None,
        Some(text) => {
            if freq == "HOURLY" {
                return unsupported("UNTIL with FREQ=HOURLY");
            }
            // Hibiki ends on a local date: the last one whose occurrence is not after UNTIL.
            let prop = Prop { name: "UNTIL".into(), params: BTreeMap::new(), value: text };
            let last = match when(&prop, zones)? {
                When::Date(d) => d,
                When::Instant(t) => last_date(t.to_zoned(zone.tz().clone()).datetime(), local.time()),
                When::Floating(dt) | When::Zoned(dt, _) => last_date(dt, local.time()),
            };
            Some(last)
        }
    };
    if count.is_some() && until.is_some() {
        return skip(SkipReason::Invalid, "both COUNT and UNTIL");
    }
    let by_day: Vec<(Option<i8>, Day)> = match parts.remove("BYDAY") {
        Some(list) => list.split(',').map(nth_day).collect::<Option<Vec<_>>>().map_or_else(|| skip(SkipReason::Invalid, "BYDAY"), Ok)?,
        None => Vec::new(),
    };
    let by_month_day: Vec<i8> = match parts.remove("BYMONTHDAY") {
        Some(list) => list
            .split(',')
            .map(|d| d.parse().ok())
            .collect::<Option<Vec<_>>>()
            .map_or_else(|| skip(SkipReason::Invalid, "BYMONTHDAY"), Ok)?,
        None => Vec::new(),
    };
    let by_month: Vec<i8> = match parts.remove("BYMONTH") {
        Some(list) => {
            list.split(',').map(|d| d.parse().ok()).collect::<Option<Vec<_>>>().map_or_else(|| skip(SkipReason::Invalid, "BYMONTH"), Ok)?
        }
        None => Vec::new(),
    };
    let set_pos = parts.remove("BYSETPOS");
    // Week starts only matter for several days every few weeks.
    let wkst = parts.remove("WKST");
    if let Some(other) = parts.keys().next() {
        return unsupported(&format!("RRULE {other}"));
    }
    let anchor_day = Day::from(local.weekday());
    let plain_days = || by_day.iter().all(|(n, _)| n.is_none());
    let days: Vec<Day> = by_day.iter().map(|(_, d)| *d).collect();
    let pattern = match freq.as_str() {
        "HOURLY" => {
            if !by_day.is_empty() || !by_month_day.is_empty() || !by_month.is_empty() || set_pos.is_some() {
                return unsupported("FREQ=HOURLY with BY parts");
            }
            // Hibiki counts elapsed hours; RFC 5545 steps the local clock: the same only where
            // the clock never jumps.
            if all_day || has_transitions(zone, anchor) {
                return unsupported("FREQ=HOURLY in a zone with daylight saving time");
            }
            match u8::try_from(interval) {
                Ok(h @ 1..=24) => Pattern::Hourly { interval_hours: h },
                _ => return unsupported("FREQ=HOURLY every more than 24 hours"),
            }
        }
        "DAILY" => {
            if !by_month_day.is_empty() || !by_month.is_empty() || set_pos.is_some() {
                return unsupported("FREQ=DAILY with BYMONTHDAY, BYMONTH or BYSETPOS");
            }
            match (days.is_empty(), interval) {
                (true, 1..=365) => Pattern::Daily { interval },
                (false, 1) if plain_days() => days_pattern(&days, 1),
                _ => return unsupported("FREQ=DAILY with this INTERVAL"),
            }
        }
        "WEEKLY" => {
            if !by_month_day.is_empty() || !by_month.is_empty() || set_pos.is_some() || !plain_days() || interval > 52 {
                return unsupported("FREQ=WEEKLY with these parts");
            }
            let several = days.iter().collect::<BTreeSet<_>>().len() > 1;
            if several && interval > 1 && wkst.as_deref().is_some_and(|w| w != "MO") {
                return unsupported("WKST other than MO");
            }
            if days.is_empty() || days.iter().all(|d| *d == anchor_day) {
                Pattern::Weekly { interval }
            } else {
                days_pattern(&days, interval)
            }
        }
        "MONTHLY" => {
            if !by_month.is_empty() || interval > 12 {
                return unsupported("FREQ=MONTHLY with BYMONTH or INTERVAL over 12");
            }
            match (by_month_day.as_slice(), by_day.as_slice(), set_pos.as_deref()) {
                ([], [], None) if local.day() <= 28 => Pattern::Monthly { interval, day: None, week: None, weekday: None },
                // RFC 5545 skips months without the day; Hibiki would ring on the last day.
                ([], [], None) => return unsupported("a monthly date after the 28th"),
                ([d @ (1..=28 | -1)], [], None) => Pattern::Monthly { interval, day: Some(*d), week: None, weekday: None },
                ([_], [], None) => return unsupported("BYMONTHDAY after the 28th"),
                ([], [(Some(n @ (1..=5 | -1)), d)], None) => Pattern::Monthly { interval, day: None, week: Some(*n), weekday: Some(*d) },
                ([], [(None, d)], Some(pos)) => match pos.parse::<i8>() {
                    Ok(n @ (1..=5 | -1)) => Pattern::Monthly { interval, day: None, week: Some(n), weekday: Some(*d) },
                    _ => return unsupported("BYSETPOS"),
                },
                _ => return unsupported("FREQ=MONTHLY with these parts"),
            }
        }
        "YEARLY" => {
            let same_month = by_month.is_empty() || by_month == [local.month()];
            let same_day = by_month_day.is_empty() || by_month_day == [local.day()];
            if !by_day.is_empty() || set_pos.is_some() || !same_month || !same_day || interval > 10 {
                return unsupported("FREQ=YEARLY with these parts");
            }
            if local.month() == 2 && local.day() == 29 {
                return unsupported("every year on 29 February");
            }
            Pattern::Yearly { interval }
        }
        "" => return skip(SkipReason::Invalid, "RRULE without FREQ"),
        other => return unsupported(&format!("FREQ={other}")),
    };
    Ok(Recurrence { pattern, shape: Shape { until, count, ..Shape::default() } })
}

/// Monday to Friday every week is Hibiki's weekdays; any other set its custom days.
fn days_pattern(days: &[Day], interval: u16) -> Pattern {
    let set: BTreeSet<Day> = days.iter().copied().collect();
    let weekdays: BTreeSet<Day> = [Day::Mon, Day::Tue, Day::Wed, Day::Thu, Day::Fri].into();
    if interval == 1 && set == weekdays { Pattern::Weekdays } else { Pattern::Custom { days: set.into_iter().collect(), interval } }
}

/// The last local date with an occurrence at `time` not after `until`.
fn last_date(until: DateTime, time: Time) -> Date {
    if until.time() >= time { until.date() } else { until.date().yesterday().unwrap_or(until.date()) }
}

/// Whether the zone's offset changes within a year of `from` (daylight saving time).
fn has_transitions(zone: &Zone, from: Timestamp) -> bool {
    let tz = zone.tz();
    let ahead = from.saturating_add(jiff::SignedDuration::from_hours(24 * 366)).unwrap_or(from);
    tz.following(from).next().is_some_and(|t| t.timestamp() < ahead)
        || tz
            .preceding(from)
            .next()
            .is_some_and(|t| t.timestamp() > from.saturating_sub(jiff::SignedDuration::from_hours(24 * 366)).unwrap_or(from))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx(now: &str) -> Context {
        Context { zone: Zone::parse("Asia/Tokyo").unwrap(), all_day_at: Time::constant(8, 0, 0, 0), now: now.parse().unwrap() }
    }

    fn read_text(ics: &str, now: &str) -> Reading {
        read(&parse(ics).expect("iCalendar"), &cx(now))
    }

    fn event(body: &str) -> String {
        format!(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:e1\r\nSUMMARY:Standup\r\n{body}END:VEVENT\r\nEND:VCALENDAR\r\n"
        )
    }

    fn rule(body: &str) -> Result<Recurrence, SkipReason> {
        let r = read_text(&event(body), "2026-11-26T00:00:00Z");
        match (r.candidates.first(), r.skipped.first()) {
            (Some(c), _) => Ok(c.input.recurrence.clone().unwrap()),
            (None, Some(s)) => Err(s.reason),
            _ => panic!("nothing read"),
        }
    }

    #[test]
    fn weekly_days_weekdays_and_their_limits() {
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261130T073000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\n").unwrap();
        assert_eq!(r.pattern, Pattern::Weekdays);
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261130T073000\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=6\r\n").unwrap();
        assert_eq!(r.pattern, Pattern::Custom { days: vec![Day::Mon, Day::Thu], interval: 2 });
        assert_eq!(r.shape.count, Some(6));
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261130T073000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO\r\n").unwrap();
        assert_eq!(r.pattern, Pattern::Weekly { interval: 1 });
        assert_eq!(
            rule("DTSTART;TZID=Asia/Tokyo:20261130T073000\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU\r\n"),
            Err(SkipReason::UnsupportedRule)
        );
        assert_eq!(rule("DTSTART;TZID=Asia/Tokyo:20261130T073000\r\nRRULE:FREQ=WEEKLY;BYHOUR=9,17\r\n"), Err(SkipReason::UnsupportedRule));
    }

    #[test]
    fn monthly_rules_that_agree_and_those_that_would_not() {
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261208T090000\r\nRRULE:FREQ=MONTHLY;BYDAY=2TU\r\n").unwrap();
        assert_eq!(r.pattern, Pattern::Monthly { interval: 1, day: None, week: Some(2), weekday: Some(Day::Tue) });
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261130T090000\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-1\r\n").unwrap();
        assert_eq!(r.pattern, Pattern::Monthly { interval: 1, day: Some(-1), week: None, weekday: None });
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261225T090000\r\nRRULE:FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1\r\n").unwrap();
        assert_eq!(r.pattern, Pattern::Monthly { interval: 1, day: None, week: Some(-1), weekday: Some(Day::Fri) });
        // The 31st: RFC 5545 skips short months, Hibiki would clamp.
        assert_eq!(rule("DTSTART;TZID=Asia/Tokyo:20261231T090000\r\nRRULE:FREQ=MONTHLY\r\n"), Err(SkipReason::UnsupportedRule));
        assert_eq!(
            rule("DTSTART;TZID=Asia/Tokyo:20261230T090000\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=30\r\n"),
            Err(SkipReason::UnsupportedRule)
        );
        assert_eq!(
            rule("DTSTART;TZID=Asia/Tokyo:20261201T090000\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1,15\r\n"),
            Err(SkipReason::UnsupportedRule)
        );
    }

    #[test]
    fn until_counts_to_the_last_date_whose_time_is_not_after_it() {
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261201T090000\r\nRRULE:FREQ=DAILY;UNTIL=20261210T000000Z\r\n").unwrap();
        // 2026-12-10T00:00Z is 09:00 in Tokyo: the 10th still counts.
        assert_eq!(r.shape.until, Some(jiff::civil::date(2026, 12, 10)));
        // A second before the 10th's 09:00: the 9th is the last.
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261201T090000\r\nRRULE:FREQ=DAILY;UNTIL=20261209T235959Z\r\n").unwrap();
        assert_eq!(r.shape.until, Some(jiff::civil::date(2026, 12, 9)));
        let r = rule("DTSTART;TZID=Asia/Tokyo:20261201T090000\r\nRRULE:FREQ=DAILY;UNTIL=20261210\r\n").unwrap();
        assert_eq!(r.shape.until, Some(jiff::civil::date(2026, 12, 10)));
    }

    #[test]
    fn past_items_ended_series_and_done_tasks_are_skipped() {
        let past = read_text(&event("DTSTART:20260101T000000Z\r\n"), "2026-11-26T00:00:00Z");
        assert_eq!(past.skipped[0].reason, SkipReason::Past);
        let ended = read_text(&event("DTSTART:20260101T000000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\n"), "2026-11-26T00:00:00Z");
        assert_eq!(ended.skipped[0].reason, SkipReason::Past);
        // A series that began long ago and goes on keeps its anchor (its count counts from it).
        let going = read_text(&event("DTSTART:20260101T000000Z\r\nRRULE:FREQ=DAILY;COUNT=400\r\n"), "2026-11-26T00:00:00Z");
        assert_eq!(going.candidates[0].input.send_at, "2026-01-01T00:00:00Z".parse().unwrap());
        let todo = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:t1\r\nSUMMARY:Buy milk\r\nDUE;VALUE=DATE:20261201\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:t2\r\nSUMMARY:Call mum\\, today\r\nDUE;VALUE=DATE:20261201\r\nEND:VTODO\r\nEND:VCALENDAR\r\n";
        let r = read_text(todo, "2026-11-26T00:00:00Z");
        assert_eq!(r.skipped[0].reason, SkipReason::Past);
        assert_eq!(r.candidates[0].input.title, "Call mum, today");
        // A date alone rings at the person's morning time, in their zone.
        assert_eq!(r.candidates[0].input.send_at, "2026-11-30T23:00:00Z".parse().unwrap());
    }

    #[test]
    fn alarms_become_alerts_before_the_start() {
        let r = read_text(
            &event(
                "DTSTART;TZID=Asia/Tokyo:20261201T090000\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-P1D\r\nEND:VALARM\r\nBEGIN:VALARM\r\nTRIGGER;RELATED=END:PT0S\r\nEND:VALARM\r\n",
            ),
            "2026-11-26T00:00:00Z",
        );
        let minutes: Vec<u32> = r.candidates[0].input.alerts.as_ref().unwrap().iter().map(|a| a.before_minutes).collect();
        assert_eq!(minutes, [15, 1440]);
        assert_eq!(minutes_before("PT0S"), Some(0));
        assert_eq!(minutes_before("PT10M"), None, "after the start");
        assert_eq!(minutes_before("-P2W"), None, "over a week");
    }

    #[test]
    fn zones_by_tzid_by_vtimezone_location_and_unknown_ones() {
        let ics = "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Tokyo Standard Time\r\nX-LIC-LOCATION:Asia/Tokyo\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:A\r\nDTSTART;TZID=Tokyo Standard Time:20261201T090000\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nSUMMARY:B\r\nDTSTART;TZID=Mars/Olympus:20261201T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let r = read_text(ics, "2026-11-26T00:00:00Z");
        assert_eq!(r.candidates[0].input.timezone.as_deref(), Some("Asia/Tokyo"));
        assert_eq!(r.candidates[0].input.send_at, "2026-12-01T00:00:00Z".parse().unwrap());
        assert_eq!(r.skipped[0].reason, SkipReason::Invalid);
    }

    #[test]
    fn a_changed_instance_leaves_its_series_and_stands_alone() {
        let ics = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:s\r\nSUMMARY:Gym\r\nDTSTART;TZID=Asia/Tokyo:20261201T190000\r\nRRULE:FREQ=DAILY;COUNT=5\r\nEXDATE;TZID=Asia/Tokyo:20261202T190000,20261203T190000\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:s\r\nRECURRENCE-ID;TZID=Asia/Tokyo:20261204T190000\r\nSUMMARY:Gym (late)\r\nDTSTART;TZID=Asia/Tokyo:20261204T210000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let r = read_text(ics, "2026-11-26T00:00:00Z");
        assert_eq!(r.candidates.len(), 2);
        let series = r.candidates[0].input.recurrence.clone().unwrap();
        assert_eq!(series.shape.skip, vec![jiff::civil::date(2026, 12, 2), jiff::civil::date(2026, 12, 3), jiff::civil::date(2026, 12, 4)]);
        assert_eq!(r.candidates[1].input.send_at, "2026-12-04T12:00:00Z".parse().unwrap());
    }
}

#[cfg(test)]
mod hostile {
    #[test]
    fn deep_nesting_is_refused_without_recursing() {
        let mut text = String::from("BEGIN:VCALENDAR\r\n");
        for _ in 0..100_000 {
            text.push_str("BEGIN:VEVENT\r\n");
        }
        assert!(super::parse(&text).is_none());
        // Folded BEGIN lines are BEGIN lines.
        let folded = format!("BEGIN:VCALENDAR\r\n{}", "BEG\r\n IN:VEVENT\r\n".repeat(100_000));
        assert!(super::parse(&folded).is_none());
        // Ordinary depth is fine.
        let ok =
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        assert_eq!(super::parse(ok).map(|c| c.len()), Some(1));
    }
}
