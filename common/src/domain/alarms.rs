//! Alerts before an occurrence and "repeat until done": the extra rings of an occurrence,
//! each its own delivery log entry (kind `alert` or `repeat`). Acting on any entry of an
//! occurrence (Complete or Snooze) stops the rest.
//!
//! The scheduler keeps at most one pending alert fire and one pending repeat fire per
//! reminder (beside the occurrence and snooze fires); claiming one schedules the next.

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::recurrence::Schedule;
use crate::error::{FieldCode, FieldErrors};

/// At most this many alerts per reminder.
pub const MAX_ALERTS: usize = 5;
/// An alert comes at most a week before.
pub const MAX_BEFORE_MINUTES: u32 = 10_080;

/// A ring `before_minutes` before the occurrence (0 is the occurrence itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
pub struct Alert {
    #[schema(minimum = 0, maximum = 10080)]
    pub before_minutes: u32,
}

/// Ring the occurrence again every `every_minutes` until Complete or Snooze, at most
/// `max_times` more times; `escalate` reaches further after so many unanswered repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RepeatUntilDone {
    #[schema(minimum = 1, maximum = 60)]
    pub every_minutes: u32,
    #[schema(minimum = 1, maximum = 20)]
    pub max_times: u32,
    /// Up to 3 steps, each once per occurrence.
    #[serde(default, skip_serializing_if = "Escalation::is_empty")]
    #[schema(value_type = Vec<EscalationStep>)]
    pub escalate: Escalation,
}

impl RepeatUntilDone {
    /// The same repeat without the steps that reach another member: what moves to another
    /// account or server, where those people are not.
    pub fn without_members(self) -> RepeatUntilDone {
        let kept: Vec<EscalationStep> = self.escalate.steps().filter(|s| s.to != EscalateTo::Member).copied().collect();
        RepeatUntilDone { escalate: Escalation::from_steps(&kept).unwrap_or_default(), ..self }
    }
}

/// At most this many escalation steps.
pub const MAX_ESCALATION_STEPS: usize = 3;

/// Where an escalation step sends the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EscalateTo {
    /// An email to the person, at once.
    Email,
    /// Every channel the person linked.
    Channels,
    /// Another member of the shared list (`member_id`).
    Member,
}

impl EscalateTo {
    pub fn as_str(self) -> &'static str {
        match self {
            EscalateTo::Email => "email",
            EscalateTo::Channels => "channels",
            EscalateTo::Member => "member",
        }
    }
}

/// After `after_times` unanswered repeats, the ring goes `to` email, the person's channels,
/// or a member of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EscalationStep {
    #[schema(minimum = 1, maximum = 20)]
    pub after_times: u32,
    pub to: EscalateTo,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub member_id: Option<crate::domain::ids::UserId>,
}

/// The steps, in a fixed room so the repeat stays a plain value (at most three).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Escalation([Option<EscalationStep>; MAX_ESCALATION_STEPS]);

impl Escalation {
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }

    pub fn steps(&self) -> impl Iterator<Item = &EscalationStep> {
        self.0.iter().flatten()
    }

    pub fn from_steps(steps: &[EscalationStep]) -> Option<Escalation> {
        let mut room = [None; MAX_ESCALATION_STEPS];
        if steps.len() > MAX_ESCALATION_STEPS {
            return None;
        }
        for (slot, step) in room.iter_mut().zip(steps) {
            *slot = Some(*step);
        }
        Some(Escalation(room))
    }
}

impl Serialize for Escalation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.steps())
    }
}

impl<'de> Deserialize<'de> for Escalation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Escalation, D::Error> {
        let steps = Vec::<EscalationStep>::deserialize(d)?;
        Escalation::from_steps(&steps).ok_or_else(|| serde::de::Error::custom("at most 3 escalation steps"))
    }
}

/// The escalation steps due when the repeat at `rang` of `occurrence` rings: those after as
/// many repeats as this one is.
pub fn steps_due(repeat: &RepeatUntilDone, occurrence: Timestamp, rang: Timestamp) -> Vec<EscalationStep> {
    let every = i64::from(repeat.every_minutes.max(1)) * 60;
    let index = rang.duration_since(occurrence).as_secs() / every;
    repeat.escalate.steps().filter(|s| i64::from(s.after_times) == index).copied().collect()
}

/// A reminder's alerts and repeat, as stored beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alarms {
    pub alerts: Vec<Alert>,
    pub repeat: Option<RepeatUntilDone>,
}

impl Default for Alarms {
    fn default() -> Alarms {
        Alarms { alerts: default_alerts(), repeat: None }
    }
}

impl Alarms {
    /// From the reminder row's `alerts` and `repeat_until_done` columns (JSON); what this
    /// version cannot read falls back to the defaults.
    pub fn from_stored(alerts: &str, repeat: Option<String>) -> Alarms {
        Alarms {
            alerts: serde_json::from_str(alerts).unwrap_or_else(|_| default_alerts()),
            repeat: repeat.and_then(|r| serde_json::from_str(&r).ok()),
        }
    }
}

/// The default: one alert of 0 minutes, the occurrence itself.
pub fn default_alerts() -> Vec<Alert> {
    vec![Alert { before_minutes: 0 }]
}

/// Checks the alerts (sorted, duplicates dropped) and the repeat.
pub fn check(alerts: &mut Vec<Alert>, repeat: Option<&RepeatUntilDone>, errors: &mut FieldErrors) {
    alerts.sort_unstable_by(|a, b| b.cmp(a));
    alerts.dedup();
    if alerts.len() > MAX_ALERTS {
        errors.add("alerts", FieldCode::TooMany.because(format!("at most {MAX_ALERTS} alerts")).with("max", MAX_ALERTS as i64));
    }
    if alerts.iter().any(|a| a.before_minutes > MAX_BEFORE_MINUTES) {
        errors.add(
            "alerts",
            FieldCode::OutOfRange
                .because(format!("before_minutes must be between 0 and {MAX_BEFORE_MINUTES}"))
                .with("min", 0)
                .with("max", MAX_BEFORE_MINUTES as i64),
        );
    }
    if let Some(r) = repeat {
        if !(1..=60).contains(&r.every_minutes) {
            errors.add(
                "repeat_until_done",
                FieldCode::OutOfRange.because("every_minutes must be between 1 and 60").with("min", 1).with("max", 60),
            );
        }
        if !(1..=20).contains(&r.max_times) {
            errors.add(
                "repeat_until_done",
                FieldCode::OutOfRange.because("max_times must be between 1 and 20").with("min", 1).with("max", 20),
            );
        }
        for step in r.escalate.steps() {
            if step.after_times < 1 || step.after_times > r.max_times.min(20) {
                errors.add(
                    "repeat_until_done.escalate",
                    FieldCode::OutOfRange
                        .because("after_times must be between 1 and max_times")
                        .with("min", 1)
                        .with("max", i64::from(r.max_times.min(20))),
                );
            }
            if (step.to == EscalateTo::Member) != step.member_id.is_some() {
                errors.add("repeat_until_done.escalate", FieldCode::Required.because("member_id goes with to: member, and only with it"));
            }
        }
    }
}

/// The next alert strictly after `after`, of an occurrence after `done` (an occurrence acted
/// on already has no more alerts): (when it rings, its occurrence). Alerts of 0 minutes are
/// the occurrence itself and never an alert fire.
pub fn next_alert(schedule: &Schedule, alerts: &[Alert], after: Timestamp, done: Option<Timestamp>) -> Option<(Timestamp, Timestamp)> {
    let befores: Vec<SignedDuration> =
        alerts.iter().filter(|a| a.before_minutes > 0).map(|a| SignedDuration::from_mins(i64::from(a.before_minutes))).collect();
    let longest = *befores.iter().max()?;
    let mut best: Option<(Timestamp, Timestamp)> = None;
    // An alert after `after` belongs to an occurrence after it. Occurrences come in order, so
    // once one's earliest alert is later than the best found, none after can beat it.
    for occurrence in schedule.iter_from(after).filter(|o| done.is_none_or(|d| *o > d)).take(20_000) {
        if best.is_some_and(|(at, _)| occurrence.checked_sub(longest).is_ok_and(|earliest| earliest > at)) {
            break;
        }
        for before in &befores {
            if let Ok(at) = occurrence.checked_sub(*before)
                && at > after
                && best.is_none_or(|(b, _)| at < b)
            {
                best = Some((at, occurrence));
            }
        }
    }
    best
}

/// The repeat after the one at `rang` (the occurrence itself when `rang == occurrence`), or
/// None when `max_times` repeats have rung.
pub fn next_repeat(repeat: &RepeatUntilDone, occurrence: Timestamp, rang: Timestamp) -> Option<Timestamp> {
    let every = SignedDuration::from_mins(i64::from(repeat.every_minutes));
    let done = rang.duration_since(occurrence).as_secs() / every.as_secs().max(1);
    (done < i64::from(repeat.max_times)).then(|| rang.checked_add(every).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escalation_steps_come_after_their_number_of_repeats_and_are_checked() {
        let steps: Vec<EscalationStep> =
            serde_json::from_str(r#"[{"after_times": 2, "to": "email"}, {"after_times": 3, "to": "channels"}]"#).unwrap();
        let r = RepeatUntilDone { every_minutes: 5, max_times: 3, escalate: Escalation::from_steps(&steps).unwrap() };
        let o = at("2026-11-26T09:00:00Z");
        assert!(steps_due(&r, o, at("2026-11-26T09:05:00Z")).is_empty());
        assert_eq!(steps_due(&r, o, at("2026-11-26T09:10:00Z"))[0].to, EscalateTo::Email);
        assert_eq!(steps_due(&r, o, at("2026-11-26T09:15:00Z"))[0].to, EscalateTo::Channels);
        // Four steps do not fit; a step past max_times, or a member step without a member, is refused.
        assert!(serde_json::from_str::<RepeatUntilDone>(r#"{"every_minutes": 5, "max_times": 3, "escalate": [{"after_times":1,"to":"email"},{"after_times":1,"to":"email"},{"after_times":1,"to":"email"},{"after_times":1,"to":"email"}]}"#).is_err());
        let mut errors = FieldErrors::default();
        let bad: RepeatUntilDone = serde_json::from_str(
            r#"{"every_minutes": 5, "max_times": 3, "escalate": [{"after_times": 4, "to": "email"}, {"after_times": 1, "to": "member"}]}"#,
        )
        .unwrap();
        check(&mut vec![], Some(&bad), &mut errors);
        assert!(errors.into_result().is_err());
        assert_eq!(serde_json::to_value(r).unwrap()["escalate"][1]["to"], "channels");
        let plain = RepeatUntilDone { every_minutes: 5, max_times: 3, escalate: Escalation::default() };
        assert!(serde_json::to_value(plain).unwrap().get("escalate").is_none());
    }
    use crate::domain::recurrence::Recurrence;
    use jiff::tz::TimeZone;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn alerts(minutes: &[u32]) -> Vec<Alert> {
        minutes.iter().map(|&before_minutes| Alert { before_minutes }).collect()
    }

    #[test]
    fn alerts_of_a_daily_reminder_come_in_order_across_occurrences() {
        let s = Schedule::new(at("2026-11-25T09:00:00+09:00"), TimeZone::get("Asia/Tokyo").unwrap(), Recurrence::daily());
        // The evening before (15 h) and 10 minutes before.
        let a = alerts(&[0, 900, 10]);
        let first = next_alert(&s, &a, at("2026-11-25T00:00:00+09:00"), None);
        assert_eq!(first, Some((at("2026-11-25T08:50:00+09:00"), at("2026-11-25T09:00:00+09:00"))), "the first day's evening is past");
        let second = next_alert(&s, &a, first.unwrap().0, None);
        assert_eq!(second, Some((at("2026-11-25T18:00:00+09:00"), at("2026-11-26T09:00:00+09:00"))));
        let third = next_alert(&s, &a, second.unwrap().0, None);
        assert_eq!(third, Some((at("2026-11-26T08:50:00+09:00"), at("2026-11-26T09:00:00+09:00"))));
        // The 26th was completed from its evening alert: its 08:50 alert does not ring.
        let after_done = next_alert(&s, &a, second.unwrap().0, Some(at("2026-11-26T09:00:00+09:00")));
        assert_eq!(after_done, Some((at("2026-11-26T18:00:00+09:00"), at("2026-11-27T09:00:00+09:00"))));
        assert_eq!(next_alert(&s, &alerts(&[0]), at("2026-11-25T00:00:00Z"), None), None, "0 minutes is the occurrence");
    }

    #[test]
    fn a_one_time_reminders_alerts_end_with_it() {
        let s = Schedule::new(at("2026-11-25T09:00:00Z"), TimeZone::UTC, Recurrence::once());
        let a = alerts(&[60, 5]);
        assert_eq!(next_alert(&s, &a, at("2026-11-25T07:00:00Z"), None), Some((at("2026-11-25T08:00:00Z"), at("2026-11-25T09:00:00Z"))));
        assert_eq!(next_alert(&s, &a, at("2026-11-25T08:00:00Z"), None), Some((at("2026-11-25T08:55:00Z"), at("2026-11-25T09:00:00Z"))));
        assert_eq!(next_alert(&s, &a, at("2026-11-25T08:55:00Z"), None), None);
    }

    #[test]
    fn repeats_stop_after_max_times() {
        let r = RepeatUntilDone { every_minutes: 5, max_times: 2, escalate: Escalation::default() };
        let o = at("2026-11-25T09:00:00Z");
        assert_eq!(next_repeat(&r, o, o), Some(at("2026-11-25T09:05:00Z")));
        assert_eq!(next_repeat(&r, o, at("2026-11-25T09:05:00Z")), Some(at("2026-11-25T09:10:00Z")));
        assert_eq!(next_repeat(&r, o, at("2026-11-25T09:10:00Z")), None);
    }

    #[test]
    fn checks_and_normalizes() {
        let mut a = alerts(&[0, 30, 30, 1440]);
        let mut errors = FieldErrors::default();
        check(&mut a, Some(&RepeatUntilDone { every_minutes: 5, max_times: 3, escalate: Escalation::default() }), &mut errors);
        assert!(errors.is_empty());
        assert_eq!(a, alerts(&[1440, 30, 0]));
        for (mut bad, repeat) in [
            (alerts(&[1, 2, 3, 4, 5, 6]), None),
            (alerts(&[10_081]), None),
            (alerts(&[0]), Some(RepeatUntilDone { every_minutes: 0, max_times: 3, escalate: Escalation::default() })),
            (alerts(&[0]), Some(RepeatUntilDone { every_minutes: 5, max_times: 21, escalate: Escalation::default() })),
        ] {
            let mut errors = FieldErrors::default();
            check(&mut bad, repeat.as_ref(), &mut errors);
            assert!(!errors.is_empty(), "{bad:?} {repeat:?}");
        }
    }
}
