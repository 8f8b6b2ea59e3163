//! Reminders: the input the API accepts, the rules it must satisfy, and the shape it answers
//! with. Validation is plain functions over plain types so it is unit-tested here.

use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use crate::domain::alarms::{self, Alarms, Alert, RepeatUntilDone};
use crate::domain::ids::{ListId, ReminderId, SubscriptionId, UserId};
use crate::domain::recurrence::{Recurrence, Schedule};
use crate::domain::zone::Zone;
use crate::error::{Error, FieldCode, FieldErrors};

pub const MAX_ACTIVE_REMINDERS: usize = 100;
pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_DESCRIPTION_CHARS: usize = 2000;
pub const MAX_METADATA_BYTES: usize = 4096;
pub const MAX_SEND_TO: usize = 50;
/// How far ahead a reminder may be set. Nobody needs more, and it keeps every computed
/// occurrence far inside the calendar range.
pub const MAX_YEARS_AHEAD: i64 = 10;
pub const DEFAULT_PREVIEW_COUNT: usize = 5;
pub const MAX_PREVIEW_COUNT: usize = 50;

/// `POST /api/reminders` body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ReminderInput {
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    /// RFC 3339 with offset; a fraction of a second is rounded up to the next second.
    #[schema(value_type = String, format = DateTime)]
    pub send_at: Timestamp,
    /// IANA time zone; defaults to the user's setting.
    #[serde(default)]
    pub timezone: Option<String>,
    #[serde(default)]
    pub recurrence: Option<Recurrence>,
    /// Up to 5 rings before each occurrence; `[{"before_minutes": 0}]` (the occurrence itself) when absent.
    #[serde(default)]
    pub alerts: Option<Vec<Alert>>,
    /// Ring again until Complete or Snooze.
    #[serde(default)]
    pub repeat_until_done: Option<RepeatUntilDone>,
    /// Ids of the user's push subscriptions to deliver to; all of them when absent.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub send_to: Option<Vec<SubscriptionId>>,
    #[serde(default)]
    pub metadata: Option<serde_json::Value>,
    /// The list it goes to: one the user belongs to; the user's default list when absent.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub list_id: Option<ListId>,
    /// Members of the list it rings for; everyone in the list when absent or empty.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub assignees: Option<Vec<UserId>>,
    /// Each occurrence goes to the next assignee in turn (needs two or more).
    #[serde(default)]
    pub rotate: Option<bool>,
    /// Rings during quiet hours (medication, a flight); default false.
    #[serde(default)]
    pub break_through: Option<bool>,
}

/// `PUT /api/reminders/{id}` body: any subset of the input fields. `null` clears the optional
/// ones.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ReminderPatch {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub send_at: Option<Timestamp>,
    #[serde(default)]
    pub timezone: Option<String>,
    #[serde(default)]
    pub recurrence: Option<Recurrence>,
    #[serde(default)]
    pub alerts: Option<Vec<Alert>>,
    /// `null` turns it off.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<RepeatUntilDone>)]
    pub repeat_until_done: Option<Option<RepeatUntilDone>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Vec<String>>)]
    pub send_to: Option<Option<Vec<SubscriptionId>>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Option<serde_json::Value>>,
    /// Moves it to another list the user belongs to.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub list_id: Option<ListId>,
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub assignees: Option<Vec<UserId>>,
    #[serde(default)]
    pub rotate: Option<bool>,
    #[serde(default)]
    pub break_through: Option<bool>,
}

/// `POST /api/reminders/preview` body: only the scheduling fields matter.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PreviewInput {
    #[schema(value_type = String, format = DateTime)]
    pub send_at: Timestamp,
    #[serde(default)]
    pub timezone: Option<String>,
    #[serde(default)]
    pub recurrence: Option<Recurrence>,
}

/// Distinguishes a field that is absent (outer `None`) from one that is `null`
/// (`Some(None)`).
pub(crate) fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// The contents of a reminder that are sealed at rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Contents {
    pub title: String,
    pub description: Option<String>,
    pub send_to: Option<Vec<SubscriptionId>>,
    pub metadata: Option<serde_json::Value>,
    /// Rings during quiet hours (not sealed: the claim reads it).
    pub break_through: bool,
}

/// When and how often a reminder fires.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    pub send_at: Timestamp,
    pub timezone: Zone,
    pub recurrence: Recurrence,
}

impl Timing {
    pub fn schedule(&self) -> Schedule {
        Schedule::new(self.send_at, self.timezone.tz().clone(), self.recurrence.clone())
    }
}

impl Reminder {
    /// When and how often it fires.
    pub fn timing(&self) -> Timing {
        Timing { send_at: self.send_at, timezone: self.timezone.clone(), recurrence: self.recurrence.clone() }
    }

    /// Its alerts and repeat.
    pub fn alarms(&self) -> Alarms {
        Alarms { alerts: self.alerts.clone(), repeat: self.repeat_until_done }
    }

    /// What [`crate::domain::lifecycle::plan`] follows `event` with for this reminder.
    pub fn plan(&self, event: crate::domain::lifecycle::Event, now: Timestamp) -> crate::domain::lifecycle::Plan {
        let (timing, alarms) = (self.timing(), self.alarms());
        crate::domain::lifecycle::plan(
            crate::domain::lifecycle::Subject { timing: &timing, alarms: &alarms, is_active: self.is_active },
            event,
            now,
        )
    }
}

/// A reminder as the API answers it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Reminder {
    #[schema(value_type = String)]
    pub id: ReminderId,
    #[schema(value_type = String)]
    pub user_id: UserId,
    pub title: String,
    pub description: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub send_at: Timestamp,
    #[schema(value_type = String)]
    pub timezone: Zone,
    pub recurrence: Recurrence,
    #[schema(value_type = Option<Vec<String>>)]
    pub send_to: Option<Vec<SubscriptionId>>,
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    /// The next instant it rings: the snooze while snoozed; for an overdue one-time reminder
    /// its past time; null once completed.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub scheduled_at: Option<Timestamp>,
    /// When a snoozed occurrence rings again; null when not snoozed.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub snoozed_until: Option<Timestamp>,
    /// A one-time reminder that fired and got no action (completed, snoozed) yet.
    pub overdue: bool,
    pub alerts: Vec<Alert>,
    pub repeat_until_done: Option<RepeatUntilDone>,
    pub is_active: bool,
    pub is_archived: bool,
    pub status: ReminderStatus,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
    /// The list it belongs to.
    #[schema(value_type = String)]
    pub list_id: ListId,
    /// Who it rings for: members of its list; empty means everyone in the list.
    #[schema(value_type = Vec<String>)]
    pub assignees: Vec<UserId>,
    /// Each occurrence goes to the next assignee in turn.
    pub rotate: bool,
    /// Rings during quiet hours rather than being held to their end.
    pub break_through: bool,
    /// Who added it.
    #[schema(value_type = String)]
    pub created_by: UserId,
}

/// What a reminder's pending fires say about it, read beside its row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireState {
    pub is_active: bool,
    pub one_time: bool,
    /// The stored `scheduled_at`: the next occurrence, or a one-time reminder's (past) time.
    pub stored_next: Option<Timestamp>,
    /// The pending snooze fire.
    pub snooze_at: Option<Timestamp>,
    /// The pending occurrence fire.
    pub next_at: Option<Timestamp>,
}

impl FireState {
    pub fn snoozed_until(&self) -> Option<Timestamp> {
        self.snooze_at.filter(|_| self.is_active)
    }

    /// The next instant it rings: the earlier of the snooze and the next occurrence.
    pub fn scheduled_at(&self) -> Option<Timestamp> {
        match (self.snoozed_until(), self.next_at) {
            (Some(s), Some(n)) => Some(s.min(n)),
            (Some(s), None) => Some(s),
            (None, _) => self.stored_next,
        }
    }

    /// Fired (its occurrence was claimed and its second has come) and nothing is pending.
    pub fn overdue(&self, now: Timestamp) -> bool {
        self.is_active && self.one_time && self.next_at.is_none() && self.snooze_at.is_none() && self.stored_next.is_some_and(|t| t <= now)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReminderStatus {
    Pending,
    Completed,
}

/// Which reminders a list asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StatusFilter {
    #[default]
    Active,
    Archived,
    All,
}

/// Trims and checks the contents; `errors` collects every problem.
pub fn check_contents(contents: &mut Contents, errors: &mut FieldErrors) {
    contents.title = contents.title.trim().to_owned();
    let title_len = contents.title.chars().count();
    if title_len == 0 {
        errors.add("title", FieldCode::Required.because("Title is required"));
    } else if title_len > MAX_TITLE_CHARS {
        errors.add(
            "title",
            FieldCode::TooLong.because(format!("Title must be at most {MAX_TITLE_CHARS} characters")).with("max", MAX_TITLE_CHARS as i64),
        );
    }
    if contents.title.chars().any(|c| c.is_control() || is_bidi_control(c)) {
        errors.add("title", FieldCode::InvalidCharacters.because("Title must not contain control characters"));
    }
    if let Some(d) = &contents.description {
        if d.chars().count() > MAX_DESCRIPTION_CHARS {
            errors.add(
                "description",
                FieldCode::TooLong
                    .because(format!("Description must be at most {MAX_DESCRIPTION_CHARS} characters"))
                    .with("max", MAX_DESCRIPTION_CHARS as i64),
            );
        } else if d.chars().any(|c| (c.is_control() && !matches!(c, '\n' | '\t' | '\r')) || is_bidi_control(c)) {
            errors.add("description", FieldCode::InvalidCharacters.because("Description must not contain control characters"));
        }
    }
    if let Some(targets) = &contents.send_to
        && targets.len() > MAX_SEND_TO
    {
        errors.add(
            "send_to",
            FieldCode::TooMany.because(format!("send_to must list at most {MAX_SEND_TO} device ids")).with("max", MAX_SEND_TO as i64),
        );
    }
    if let Some(m) = &contents.metadata
        && serde_json::to_vec(m).map(|v| v.len()).unwrap_or(usize::MAX) > MAX_METADATA_BYTES
    {
        errors.add(
            "metadata",
            FieldCode::TooLong
                .because(format!("Metadata must be at most {MAX_METADATA_BYTES} bytes of JSON"))
                .with("max", MAX_METADATA_BYTES as i64),
        );
    }
}

/// Embedding and override marks of the bidirectional algorithm (U+202A–U+202E, U+2066–U+2069):
/// a title carrying them can show as something else than it is (a "Trojan Source" display).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The zone a request names, spelled as the database does; an unknown one is a field error
/// (and UTC stands in for it so the other fields can still be checked).
pub fn check_zone(name: &str, errors: &mut FieldErrors) -> Zone {
    Zone::parse(name).unwrap_or_else(|| {
        errors.add("timezone", FieldCode::UnknownZone.because("Unknown time zone (use an IANA name such as Asia/Tokyo)"));
        Zone::utc()
    })
}

/// Checks the timing of a reminder that is created or whose time is edited, and returns its
/// next occurrence. `send_at_given` says whether the client set `send_at` in this request: a
/// given time must be in the future; an edit of only the recurrence keeps the old anchor.
pub fn check_timing(timing: &mut Timing, send_at_given: bool, now: Timestamp, errors: &mut FieldErrors) -> Option<Timestamp> {
    timing.send_at = crate::domain::time::ceil_to_second(timing.send_at);
    if let Err(e) = timing.recurrence.validate() {
        errors.add("recurrence", e.problem());
    }
    if send_at_given && timing.send_at <= now {
        errors.add("send_at", FieldCode::NotInFuture.because("send_at must be in the future"));
    }
    let limit = now.saturating_add(jiff::SignedDuration::from_hours(24 * 366 * MAX_YEARS_AHEAD)).unwrap_or(now);
    if timing.send_at > limit {
        errors.add(
            "send_at",
            FieldCode::TooFar.because(format!("send_at must be within {MAX_YEARS_AHEAD} years")).with("years", MAX_YEARS_AHEAD),
        );
    }
    if !errors.is_empty() {
        return None;
    }
    // Strictly after now: an occurrence at this very instant would already be due.
    let next = timing.schedule().next_after(now);
    if next.is_none() {
        errors.add("send_at", FieldCode::NotInFuture.because("send_at must be in the future"));
    }
    next
}

/// What applying a patch changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applied {
    /// The time, zone or recurrence changed: the pending occurrence is replaced.
    pub timing_changed: bool,
    /// A completed reminder got a new time and is pending again (counts against the limit).
    pub reactivate: bool,
    /// The alerts or the repeat changed: the pending alert and repeat are replaced.
    pub alarms_changed: bool,
}

impl ReminderPatch {
    /// Applies the patch to `r`. Only what really changes is checked: a `send_at` equal to the
    /// stored one is no change (an app may send every field back), so renaming a reminder
    /// whose first occurrence is past, or an overdue one, never fails on time. A changed
    /// `send_at` must be in the future.
    pub fn apply_to(self, r: &mut Reminder, now: Timestamp) -> Result<Applied, Error> {
        let mut contents = Contents {
            title: self.title.unwrap_or_else(|| r.title.clone()),
            description: r.description.clone(),
            send_to: r.send_to.clone(),
            metadata: r.metadata.clone(),
            break_through: self.break_through.unwrap_or(r.break_through),
        };
        if let Some(d) = self.description {
            contents.description = d;
        }
        if let Some(t) = self.send_to {
            contents.send_to = t;
        }
        if let Some(m) = self.metadata {
            contents.metadata = m;
        }
        let mut errors = FieldErrors::default();
        let mut alarms_changed = false;
        if self.alerts.is_some() || self.repeat_until_done.is_some() {
            let mut alerts = self.alerts.unwrap_or_else(|| r.alerts.clone());
            let repeat = self.repeat_until_done.unwrap_or(r.repeat_until_done);
            alarms::check(&mut alerts, repeat.as_ref(), &mut errors);
            alarms_changed = alerts != r.alerts || repeat != r.repeat_until_done;
            r.alerts = alerts;
            r.repeat_until_done = repeat;
        }
        check_contents(&mut contents, &mut errors);
        let send_at = self.send_at.map(crate::domain::time::ceil_to_second).filter(|t| *t != r.send_at);
        let timezone = self.timezone.map(|tz| check_zone(&tz, &mut errors)).filter(|tz| *tz != r.timezone);
        let recurrence = self.recurrence.filter(|rec| *rec != r.recurrence);
        let mut applied = Applied { alarms_changed, ..Applied::default() };
        if send_at.is_some() || timezone.is_some() || recurrence.is_some() {
            let mut timing = Timing {
                send_at: send_at.unwrap_or(r.send_at),
                timezone: timezone.unwrap_or_else(|| r.timezone.clone()),
                recurrence: recurrence.unwrap_or_else(|| r.recurrence.clone()),
            };
            let next = check_timing(&mut timing, send_at.is_some(), now, &mut errors);
            errors.into_result()?;
            r.send_at = timing.send_at;
            r.timezone = timing.timezone;
            r.recurrence = timing.recurrence;
            r.scheduled_at = next;
            applied = Applied { timing_changed: true, reactivate: r.is_archived, alarms_changed };
        } else {
            errors.into_result()?;
        }
        r.title = contents.title;
        r.description = contents.description;
        r.send_to = contents.send_to;
        r.metadata = contents.metadata;
        r.break_through = contents.break_through;
        Ok(applied)
    }
}

/// Skips the reminder's next occurrence: its local date joins `recurrence.skip`. Skipped
/// dates already past are dropped first, so "skip next" keeps working on a long-lived
/// reminder; the pending occurrence moves to the one after.
pub fn skip_next(r: &mut Reminder, now: Timestamp) -> Result<Applied, Error> {
    if r.recurrence.is_one_time() {
        return Err(Error::field("recurrence", FieldCode::NotApplicable.because("a one-time reminder has no next occurrence to skip")));
    }
    let schedule = r.timing().schedule();
    let Some(next) = schedule.next_after(now) else {
        return Err(Error::field("recurrence", FieldCode::NotApplicable.because("the reminder has no next occurrence to skip")));
    };
    let today = now.to_zoned(schedule.tz.clone()).date();
    let date = next.to_zoned(schedule.tz.clone()).date();
    let skip = &mut r.recurrence.shape.skip;
    skip.retain(|d| *d >= today && *d != date);
    skip.push(date);
    skip.sort_unstable();
    if skip.len() > crate::domain::recurrence::MAX_SKIPS {
        return Err(Error::field("recurrence", FieldCode::TooMany.because("At most 100 dates can be skipped.").with("max", 100)));
    }
    r.scheduled_at = r.timing().schedule().next_after(now);
    Ok(Applied { timing_changed: true, reactivate: false, alarms_changed: false })
}

/// How far ahead `snooze_until` may be.
pub const MAX_SNOOZE_AHEAD: jiff::SignedDuration = jiff::SignedDuration::from_hours(24 * 7);

/// When a snooze rings again: a preset number of minutes from now, or a named instant in the
/// next 7 days (rounded up to its second).
pub fn snooze_target(minutes: Option<i64>, until: Option<Timestamp>, now: Timestamp) -> Result<Timestamp, Error> {
    match (minutes, until) {
        (Some(_), Some(_)) => {
            Err(Error::field("snooze_until", FieldCode::Conflict.because("give snooze_minutes or snooze_until, not both")))
        }
        (_, Some(until)) => {
            let until = crate::domain::time::ceil_to_second(until);
            if until <= now {
                Err(Error::field("snooze_until", FieldCode::NotInFuture.because("snooze_until must be in the future")))
            } else if until.duration_since(now) > MAX_SNOOZE_AHEAD {
                Err(Error::field("snooze_until", FieldCode::TooFar.because("snooze_until must be within 7 days").with("days", 7)))
            } else {
                Ok(until)
            }
        }
        (Some(m), None) if crate::domain::settings::SNOOZE_PRESETS.contains(&m) => Ok(now + jiff::SignedDuration::from_mins(m)),
        _ => Err(Error::field("snooze_minutes", FieldCode::InvalidChoice.because("snooze_minutes must be one of 5, 10, 15, 30, 60"))),
    }
}

/// What acting on a delivered occurrence does to its reminder ("where is snooze": here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionEffect {
    /// Complete on a one-time reminder: it is archived (completed).
    Archive,
    /// Complete on a recurring one: it stays for its next occurrence; a pending snooze is
    /// dropped.
    ClearSnooze,
    /// Snooze: the occurrence rings again at this instant; the recurrence does not move.
    SnoozeUntil(Timestamp),
    /// Snooze by one of several people a shared reminder rings for: it rings again at this
    /// instant for that person only; the others' rings (the occurrence, its repeats) go on.
    SnoozeForOne(Timestamp),
}

impl ActionEffect {
    /// A snooze by one of several recipients is theirs alone.
    pub fn for_one_of_many(self) -> ActionEffect {
        match self {
            ActionEffect::SnoozeUntil(at) => ActionEffect::SnoozeForOne(at),
            other => other,
        }
    }
}

/// Decides what a notification action does. A snooze names minutes (a preset), an instant, or
/// neither (then the user's default).
pub fn action_effect(
    action: crate::domain::states::NotificationAction,
    one_time: bool,
    snooze_minutes: Option<i64>,
    snooze_until: Option<Timestamp>,
    default_snooze_minutes: i64,
    now: Timestamp,
) -> Result<ActionEffect, Error> {
    use crate::domain::states::NotificationAction;
    Ok(match action {
        NotificationAction::Complete if one_time => ActionEffect::Archive,
        NotificationAction::Complete => ActionEffect::ClearSnooze,
        NotificationAction::Snooze => {
            let minutes = if snooze_minutes.is_none() && snooze_until.is_none() { Some(default_snooze_minutes) } else { snooze_minutes };
            ActionEffect::SnoozeUntil(snooze_target(minutes, snooze_until, now)?)
        }
    })
}

/// Clamps the preview count to the contract's range.
pub fn preview_count(count: Option<usize>) -> Result<usize, Error> {
    match count {
        None => Ok(DEFAULT_PREVIEW_COUNT),
        Some(n) if (1..=MAX_PREVIEW_COUNT).contains(&n) => Ok(n),
        Some(_) => Err(Error::field(
            "count",
            FieldCode::OutOfRange
                .because(format!("count must be between 1 and {MAX_PREVIEW_COUNT}"))
                .with("min", 1)
                .with("max", MAX_PREVIEW_COUNT as i64),
        )),
    }
}

/// Send-now per account: one per this many ms (the configuration's, a test may shorten it)...
pub const SEND_NOW_EVERY_MS: i64 = 10_000;
/// ...and at most this many an hour.
pub const SEND_NOW_PER_HOUR: usize = 30;

/// Seconds to wait before the next send-now, given the account's send-nows of the last hour
/// (ms, newest first) and the least time between two; `None` when it may send now.
pub fn send_now_wait(last_hour_newest_first: &[i64], now_ms: i64, every_ms: i64) -> Option<i64> {
    let secs = |ms: i64| (ms as f64 / 1000.0).ceil().max(1.0) as i64;
    if let Some(&newest) = last_hour_newest_first.first()
        && now_ms - newest < every_ms
    {
        return Some(secs(newest + every_ms - now_ms));
    }
    if last_hour_newest_first.len() >= SEND_NOW_PER_HOUR {
        let oldest_counted = last_hour_newest_first[SEND_NOW_PER_HOUR - 1];
        return Some(secs(oldest_counted + 3_600_000 - now_ms));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(name: &str) -> Zone {
        Zone::parse(name).unwrap()
    }

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn contents(title: &str) -> Contents {
        Contents { title: title.into(), description: None, send_to: None, metadata: None, break_through: false }
    }

    #[test]
    fn title_is_trimmed_and_bounded() {
        let mut errors = FieldErrors::default();
        let mut c = contents("  歯医者  ");
        check_contents(&mut c, &mut errors);
        assert!(errors.is_empty());
        assert_eq!(c.title, "歯医者");

        for bad in ["", "   ", &"あ".repeat(201)] {
            let mut errors = FieldErrors::default();
            check_contents(&mut contents(bad), &mut errors);
            assert!(!errors.is_empty(), "{bad:?}");
        }
        let mut errors = FieldErrors::default();
        check_contents(&mut contents(&"あ".repeat(200)), &mut errors);
        assert!(errors.is_empty(), "200 characters, not bytes");
    }

    #[test]
    fn control_and_bidi_override_characters_are_refused() {
        for bad in ["a\0b", "bell\u{7}", "esc\u{1b}[31m", "evil\u{202E}gnp.exe", "iso\u{2066}late", "new\nline"] {
            let mut errors = FieldErrors::default();
            check_contents(&mut contents(bad), &mut errors);
            assert!(!errors.is_empty(), "{bad:?}");
        }
        let mut c = contents("ok");
        c.description = Some("line one\nline two\tand a tab".into());
        let mut errors = FieldErrors::default();
        check_contents(&mut c, &mut errors);
        assert!(errors.is_empty(), "new lines and tabs are fine in a description");
        c.description = Some("nul\0".into());
        let mut errors = FieldErrors::default();
        check_contents(&mut c, &mut errors);
        assert!(!errors.is_empty());
        let mut ok = contents("العربية と 日本語 mixed");
        let mut errors = FieldErrors::default();
        check_contents(&mut ok, &mut errors);
        assert!(errors.is_empty(), "right-to-left text itself is fine");
    }

    #[test]
    fn description_and_metadata_limits() {
        let mut c = contents("t");
        c.description = Some("x".repeat(2001));
        c.metadata = Some(serde_json::json!({ "k": "v".repeat(4100) }));
        let mut errors = FieldErrors::default();
        check_contents(&mut c, &mut errors);
        let Err(Error::Validation(fields)) = errors.into_result() else { panic!() };
        assert!(fields.contains_key("description") && fields.contains_key("metadata"));
    }

    #[test]
    fn timing_rules() {
        let now = ts("2026-03-01T00:00:00Z");
        let mut t = Timing { send_at: ts("2026-03-01T00:00:00.2Z"), timezone: zone("Asia/Tokyo"), recurrence: Recurrence::once() };
        let mut errors = FieldErrors::default();
        // Rounded up to 00:00:01, which is in the future.
        assert_eq!(check_timing(&mut t, true, now, &mut errors), Some(ts("2026-03-01T00:00:01Z")));
        assert!(errors.is_empty());

        t.send_at = now;
        let mut errors = FieldErrors::default();
        assert_eq!(check_timing(&mut t, true, now, &mut errors), None);
        assert!(!errors.is_empty());

        let mut errors = FieldErrors::default();
        let mut t = Timing {
            send_at: ts("2026-03-02T00:00:00Z"),
            timezone: check_zone("Mars/Olympus", &mut errors),
            recurrence: Recurrence::of(crate::domain::recurrence::Pattern::Hourly { interval_hours: 25 }),
        };
        check_timing(&mut t, true, now, &mut errors);
        let Err(Error::Validation(fields)) = errors.into_result() else { panic!() };
        assert!(fields.contains_key("timezone") && fields.contains_key("recurrence"));

        let mut far = Timing { send_at: ts("2040-01-01T00:00:00Z"), timezone: zone("UTC"), recurrence: Recurrence::once() };
        let mut errors = FieldErrors::default();
        assert_eq!(check_timing(&mut far, true, now, &mut errors), None);
    }

    #[test]
    fn editing_a_recurring_reminder_keeps_its_past_anchor() {
        let now = ts("2026-03-10T12:00:00Z");
        let mut t = Timing { send_at: ts("2026-03-01T09:00:00Z"), timezone: zone("UTC"), recurrence: Recurrence::daily() };
        let mut errors = FieldErrors::default();
        assert_eq!(check_timing(&mut t, false, now, &mut errors), Some(ts("2026-03-11T09:00:00Z")));
        // A one-time reminder in the past has no next occurrence.
        t.recurrence = Recurrence::once();
        let mut errors = FieldErrors::default();
        assert_eq!(check_timing(&mut t, false, now, &mut errors), None);
        assert!(!errors.is_empty());
    }

    #[test]
    fn fire_state_says_snoozed_overdue_and_next() {
        let now = ts("2026-03-10T12:00:00Z");
        let past = ts("2026-03-10T11:00:00Z");
        let later = ts("2026-03-10T12:10:00Z");
        let next_day = ts("2026-03-11T11:00:00Z");
        // A one-time reminder waiting for its time.
        let waiting = FireState { is_active: true, one_time: true, stored_next: Some(later), snooze_at: None, next_at: Some(later) };
        assert!(!waiting.overdue(now));
        assert_eq!(waiting.scheduled_at(), Some(later));
        // Fired, no action: overdue, and its time stays the past one.
        let fired = FireState { next_at: None, stored_next: Some(past), ..waiting };
        assert!(fired.overdue(now));
        assert_eq!(fired.scheduled_at(), Some(past));
        // Claimed a moment ahead of its second: not overdue before it.
        assert!(!FireState { stored_next: Some(later), ..fired }.overdue(now));
        // Snoozed: rings again at the snooze, not overdue.
        let snoozed = FireState { snooze_at: Some(later), ..fired };
        assert!(!snoozed.overdue(now));
        assert_eq!(snoozed.snoozed_until(), Some(later));
        assert_eq!(snoozed.scheduled_at(), Some(later));
        // A recurring reminder snoozed: the earlier of the snooze and its next occurrence.
        let daily =
            FireState { is_active: true, one_time: false, stored_next: Some(next_day), snooze_at: Some(later), next_at: Some(next_day) };
        assert_eq!(daily.scheduled_at(), Some(later));
        assert!(!FireState { snooze_at: None, next_at: None, ..daily }.overdue(now), "recurring reminders are never overdue");
        // Archived: neither.
        let archived = FireState { is_active: false, ..snoozed };
        assert_eq!(archived.snoozed_until(), None);
        assert!(!FireState { is_active: false, ..fired }.overdue(now));
    }

    fn reminder(send_at: &str, recurrence: Recurrence) -> Reminder {
        let t = ts(send_at);
        Reminder {
            id: ReminderId::generate(),
            user_id: UserId::generate(),
            title: "Water the plants".into(),
            description: None,
            send_at: t,
            timezone: zone("Asia/Tokyo"),
            recurrence,
            send_to: None,
            metadata: None,
            scheduled_at: Some(t),
            snoozed_until: None,
            overdue: false,
            alerts: crate::domain::alarms::default_alerts(),
            repeat_until_done: None,
            is_active: true,
            is_archived: false,
            status: ReminderStatus::Pending,
            created_at: t,
            updated_at: t,
            list_id: crate::domain::ids::ListId::generate(),
            assignees: Vec::new(),
            rotate: false,
            break_through: false,
            created_by: UserId::generate(),
        }
    }

    #[test]
    fn a_title_edit_of_a_fired_reminder_never_fails_on_time() {
        let now = ts("2026-03-10T12:00:00Z");
        for recurrence in [Recurrence::daily(), Recurrence::once()] {
            let mut r = reminder("2026-03-01T00:00:00Z", recurrence.clone());
            // The app sends every field back, the old past send_at included.
            let patch: ReminderPatch = serde_json::from_value(serde_json::json!({
                "title": "Water the garden", "send_at": "2026-03-01T09:00:00+09:00", "timezone": "Asia/Tokyo", "recurrence": recurrence,
            }))
            .unwrap();
            let applied = patch.apply_to(&mut r, now).unwrap();
            assert_eq!(applied, Applied::default(), "{recurrence:?}: nothing but the title changed");
            assert_eq!(r.title, "Water the garden");
            assert_eq!(r.send_at, ts("2026-03-01T00:00:00Z"), "the schedule is kept");
        }
    }

    #[test]
    fn a_changed_send_at_must_be_in_the_future() {
        let now = ts("2026-03-10T12:00:00Z");
        let mut r = reminder("2026-03-01T00:00:00Z", Recurrence::once());
        let past = ReminderPatch { send_at: Some(ts("2026-03-09T00:00:00Z")), ..Default::default() };
        let Err(Error::Validation(fields)) = past.apply_to(&mut r, now) else { panic!("a moved past time is refused") };
        assert!(fields.contains_key("send_at"));
        // An overdue one-time reminder moves to a new future time.
        let moved = ReminderPatch { send_at: Some(ts("2026-03-11T00:00:00Z")), ..Default::default() };
        let applied = moved.apply_to(&mut r, now).unwrap();
        assert!(applied.timing_changed && !applied.reactivate);
        assert_eq!(r.scheduled_at, Some(ts("2026-03-11T00:00:00Z")));
        // A recurring reminder whose first occurrence is past changes its recurrence from its
        // old anchor: the next occurrence is computed from now.
        let mut daily = reminder("2026-03-01T00:00:00Z", Recurrence::daily());
        let weekdays = ReminderPatch { recurrence: Some(Recurrence::weekdays()), ..Default::default() };
        assert!(weekdays.apply_to(&mut daily, now).unwrap().timing_changed);
        assert_eq!(daily.scheduled_at, Some(ts("2026-03-11T00:00:00Z")));
    }

    #[test]
    fn time_zones_are_canonical_iana_names() {
        for (given, canonical) in [
            ("Asia/Tokyo", "Asia/Tokyo"),
            ("asia/tokyo", "Asia/Tokyo"),
            ("AMERICA/NEW_YORK", "America/New_York"),
            ("UTC", "UTC"),
            ("Etc/GMT+9", "Etc/GMT+9"),
        ] {
            let mut errors = FieldErrors::default();
            assert_eq!(check_zone(given, &mut errors).name(), canonical);
            assert!(errors.is_empty());
        }
        for refused in [
            "localtime",
            "posixrules",
            "Factory",
            "posix/Asia/Tokyo",
            "right/UTC",
            "EST5EDT",
            "Japan",
            "",
            "Asia/Tokyo\0",
            "../etc/passwd",
            "Mars/Olympus",
        ] {
            let mut errors = FieldErrors::default();
            assert!(check_zone(refused, &mut errors).is_utc());
            assert!(!errors.is_empty(), "{refused:?}");
        }
    }

    #[test]
    fn action_effects() {
        use crate::domain::states::NotificationAction::{Complete, Snooze};
        let now = ts("2026-03-10T12:00:00Z");
        assert_eq!(action_effect(Complete, true, None, None, 10, now).unwrap(), ActionEffect::Archive);
        assert_eq!(
            action_effect(Complete, false, Some(7), None, 10, now).unwrap(),
            ActionEffect::ClearSnooze,
            "complete ignores snooze fields"
        );
        assert_eq!(
            action_effect(Snooze, true, None, None, 15, now).unwrap(),
            ActionEffect::SnoozeUntil(ts("2026-03-10T12:15:00Z")),
            "the default"
        );
        assert_eq!(action_effect(Snooze, false, Some(5), None, 15, now).unwrap(), ActionEffect::SnoozeUntil(ts("2026-03-10T12:05:00Z")));
        let until = ts("2026-03-11T08:00:00Z");
        assert_eq!(action_effect(Snooze, false, None, Some(until), 15, now).unwrap(), ActionEffect::SnoozeUntil(until));
        assert!(action_effect(Snooze, false, Some(7), None, 15, now).is_err());
    }

    #[test]
    fn snooze_targets() {
        let now = ts("2026-03-10T12:00:00Z");
        assert_eq!(snooze_target(Some(15), None, now).unwrap(), ts("2026-03-10T12:15:00Z"));
        assert!(snooze_target(Some(7), None, now).is_err());
        assert!(snooze_target(None, None, now).is_err());
        assert_eq!(snooze_target(None, Some(ts("2026-03-11T08:00:00.3Z")), now).unwrap(), ts("2026-03-11T08:00:01Z"));
        assert!(snooze_target(None, Some(now), now).is_err(), "must be in the future");
        assert!(snooze_target(None, Some(ts("2026-03-17T12:00:01Z")), now).is_err(), "within 7 days");
        assert!(snooze_target(Some(5), Some(ts("2026-03-11T08:00:00Z")), now).is_err());
    }

    #[test]
    fn patch_tells_absent_from_null() {
        let p: ReminderPatch = serde_json::from_str(r#"{"description": null}"#).unwrap();
        assert_eq!(p.description, Some(None));
        assert_eq!(p.metadata, None);
        let p: ReminderPatch = serde_json::from_str(r#"{"description": "d"}"#).unwrap();
        assert_eq!(p.description, Some(Some("d".into())));
    }

    #[test]
    fn preview_count_bounds() {
        assert_eq!(preview_count(None).unwrap(), 5);
        assert_eq!(preview_count(Some(50)).unwrap(), 50);
        assert!(preview_count(Some(0)).is_err());
        assert!(preview_count(Some(51)).is_err());
    }
}

#[cfg(test)]
mod send_now_tests {
    use super::*;

    #[test]
    fn one_per_ten_seconds_and_thirty_an_hour() {
        let now = 10_000_000;
        let every = SEND_NOW_EVERY_MS;
        assert_eq!(send_now_wait(&[], now, every), None);
        assert_eq!(send_now_wait(&[now - 1_000], now, every), Some(9));
        assert_eq!(send_now_wait(&[now - 10_000], now, every), None);
        let thirty: Vec<i64> = (0..30).map(|i| now - 20_000 - i * 60_000).collect();
        // The oldest of the 30 was sent 20 s + 29 min ago: it leaves the hour in 30 min 40 s.
        assert_eq!(send_now_wait(&thirty, now, every), Some(1840));
        assert_eq!(send_now_wait(&thirty[..29], now, every), None);
        let close: Vec<i64> = (0..30).map(|i| now - 1 - i).collect();
        assert_eq!(send_now_wait(&close[..1], now, 0), None, "no interval: only the hour's 30 count");
        assert_eq!(send_now_wait(&close, now, 0), Some(3600));
    }
}
