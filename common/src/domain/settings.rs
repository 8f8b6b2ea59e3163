//! User settings and their rules.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::quiet::{DailyBrief, QuietHours};
use crate::domain::states::Language;
use crate::domain::zone::Zone;
use crate::error::{FieldCode, FieldErrors};

pub const SNOOZE_PRESETS: [i64; 5] = [5, 10, 15, 30, 60];
/// `email_fallback_minutes` choices (null = off).
pub const EMAIL_FALLBACK_CHOICES: [i64; 4] = [1, 5, 15, 30];
pub const DEFAULT_EMAIL_FALLBACK_MINUTES: i64 = 5;

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Settings {
    #[schema(value_type = String)]
    pub timezone: Zone,
    pub language: Language,
    pub default_snooze_minutes: i64,
    pub speak_titles: bool,
    pub hide_notification_content: bool,
    /// Minutes after which an occurrence no device showed is emailed; null = off.
    pub email_fallback_minutes: Option<i64>,
    /// "Tomorrow morning" in the snooze menu, `HH:MM` (default 08:00).
    pub morning_time: String,
    /// "This evening" in the snooze menu, `HH:MM` (default 18:00).
    pub evening_time: String,
    /// Rings are held from `start` to `end` (local `HH:MM`) and delivered at the end; null = off.
    pub quiet_hours: Option<QuietHours>,
    /// A summary of the day at `time`, by `via`; null = off.
    pub daily_brief: Option<DailyBrief>,
}

#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct SettingsPatch {
    pub timezone: Option<String>,
    pub language: Option<String>,
    pub default_snooze_minutes: Option<i64>,
    pub speak_titles: Option<bool>,
    pub hide_notification_content: Option<bool>,
    /// 1, 5, 15 or 30; null turns the email fallback off.
    #[serde(default, deserialize_with = "crate::domain::reminder::present")]
    #[schema(value_type = Option<i64>)]
    pub email_fallback_minutes: Option<Option<i64>>,
    /// `HH:MM`, 24-hour.
    pub morning_time: Option<String>,
    /// `HH:MM`, 24-hour.
    pub evening_time: Option<String>,
    /// `{start, end}`, `HH:MM` each; null turns quiet hours off.
    #[serde(default, deserialize_with = "crate::domain::reminder::present")]
    #[schema(value_type = Option<QuietHours>)]
    pub quiet_hours: Option<Option<QuietHours>>,
    /// `{time, via}`: `HH:MM`, and `push`, `email` or a channel's id; null turns it off.
    #[serde(default, deserialize_with = "crate::domain::reminder::present")]
    #[schema(value_type = Option<DailyBrief>)]
    pub daily_brief: Option<Option<DailyBrief>>,
}

impl SettingsPatch {
    /// Checks every field (a brief's `via` may name one of `channels`), and spells a time zone
    /// as the database does.
    pub fn check(&mut self, channels: &[String]) -> crate::Result<()> {
        let mut errors = FieldErrors::default();
        if let Some(tz) = &mut self.timezone {
            *tz = crate::domain::reminder::check_zone(tz, &mut errors).name().to_owned();
        }
        if let Some(lang) = &self.language
            && Language::parse(lang).is_none()
        {
            errors.add("language", FieldCode::InvalidChoice.because("language must be ja or en"));
        }
        if let Some(m) = self.default_snooze_minutes
            && !SNOOZE_PRESETS.contains(&m)
        {
            errors
                .add("default_snooze_minutes", FieldCode::InvalidChoice.because("default_snooze_minutes must be one of 5, 10, 15, 30, 60"));
        }
        if let Some(Some(m)) = self.email_fallback_minutes
            && !EMAIL_FALLBACK_CHOICES.contains(&m)
        {
            errors.add(
                "email_fallback_minutes",
                FieldCode::InvalidChoice.because("email_fallback_minutes must be null or one of 1, 5, 15, 30"),
            );
        }
        for (field, value) in [("morning_time", &self.morning_time), ("evening_time", &self.evening_time)] {
            if value.as_deref().is_some_and(|v| !is_day_time(v)) {
                errors.add(field, FieldCode::InvalidFormat.because(format!("{field} must be a time HH:MM (00:00 to 23:59)")));
            }
        }
        if let Some(Some(quiet)) = &self.quiet_hours {
            quiet.check(&mut errors);
        }
        if let Some(Some(brief)) = &self.daily_brief {
            brief.check(channels, &mut errors);
        }
        errors.into_result()
    }

    pub fn apply(self, s: &mut Settings) {
        // Checked (and spelled as the database does) by `check`.
        if let Some(zone) = self.timezone.as_deref().and_then(Zone::parse) {
            s.timezone = zone;
        }
        if let Some(v) = self.language.as_deref().and_then(Language::parse) {
            s.language = v;
        }
        if let Some(v) = self.default_snooze_minutes {
            s.default_snooze_minutes = v;
        }
        if let Some(v) = self.speak_titles {
            s.speak_titles = v;
        }
        if let Some(v) = self.hide_notification_content {
            s.hide_notification_content = v;
        }
        if let Some(v) = self.email_fallback_minutes {
            s.email_fallback_minutes = v;
        }
        if let Some(v) = self.morning_time {
            s.morning_time = v;
        }
        if let Some(v) = self.evening_time {
            s.evening_time = v;
        }
        if let Some(v) = self.quiet_hours {
            s.quiet_hours = v;
        }
        if let Some(v) = self.daily_brief {
            s.daily_brief = v;
        }
    }
}

/// `HH:MM`, 00:00 to 23:59, two digits each.
pub fn is_day_time(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() == 5
        && b[2] == b':'
        && b[..2].iter().chain(&b[3..]).all(u8::is_ascii_digit)
        && value[..2].parse::<u8>().is_ok_and(|h| h < 24)
        && value[3..].parse::<u8>().is_ok_and(|m| m < 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_each_field() {
        assert!(SettingsPatch { timezone: Some("Asia/Tokyo".into()), ..Default::default() }.check(&[]).is_ok());
        assert!(SettingsPatch { timezone: Some("Asia/Nowhere".into()), ..Default::default() }.check(&[]).is_err());
        assert!(SettingsPatch { language: Some("fr".into()), ..Default::default() }.check(&[]).is_err());
        assert!(SettingsPatch { default_snooze_minutes: Some(7), ..Default::default() }.check(&[]).is_err());
        assert!(SettingsPatch { default_snooze_minutes: Some(30), ..Default::default() }.check(&[]).is_ok());
        assert!(SettingsPatch { email_fallback_minutes: Some(None), ..Default::default() }.check(&[]).is_ok());
        assert!(SettingsPatch { email_fallback_minutes: Some(Some(15)), ..Default::default() }.check(&[]).is_ok());
        assert!(SettingsPatch { email_fallback_minutes: Some(Some(2)), ..Default::default() }.check(&[]).is_err());
        for good in ["00:00", "07:30", "23:59"] {
            assert!(SettingsPatch { morning_time: Some(good.into()), ..Default::default() }.check(&[]).is_ok(), "{good}");
        }
        for bad in ["24:00", "7:30", "07:60", "0730", "０７:３０", "07:30:00", ""] {
            assert!(SettingsPatch { evening_time: Some(bad.into()), ..Default::default() }.check(&[]).is_err(), "{bad}");
        }
    }

    #[test]
    fn email_fallback_null_turns_it_off_and_absent_keeps_it() {
        let mut s = Settings {
            timezone: crate::domain::zone::Zone::parse("UTC").unwrap(),
            language: Language::En,
            default_snooze_minutes: 10,
            speak_titles: false,
            hide_notification_content: false,
            email_fallback_minutes: Some(5),
            morning_time: "08:00".into(),
            evening_time: "18:00".into(),
            quiet_hours: None,
            daily_brief: None,
        };
        let keep: SettingsPatch = serde_json::from_str(r#"{"speak_titles": true}"#).unwrap();
        keep.apply(&mut s);
        assert_eq!(s.email_fallback_minutes, Some(5));
        let off: SettingsPatch = serde_json::from_str(r#"{"email_fallback_minutes": null}"#).unwrap();
        off.apply(&mut s);
        assert_eq!(s.email_fallback_minutes, None);
        let quiet: SettingsPatch = serde_json::from_str(r#"{"quiet_hours": {"start": "22:00", "end": "07:00"}}"#).unwrap();
        quiet.apply(&mut s);
        assert_eq!(s.quiet_hours, Some(QuietHours { start: "22:00".into(), end: "07:00".into() }));
        let off: SettingsPatch = serde_json::from_str(r#"{"quiet_hours": null}"#).unwrap();
        off.apply(&mut s);
        assert_eq!(s.quiet_hours, None);
    }

    #[test]
    fn a_brief_goes_by_push_email_or_ones_own_channel() {
        let brief = |via: &str| SettingsPatch {
            daily_brief: Some(Some(DailyBrief { time: "07:00".into(), via: via.into() })),
            ..Default::default()
        };
        assert!(brief("push").check(&[]).is_ok());
        assert!(brief("email").check(&[]).is_ok());
        assert!(brief("pigeon").check(&[]).is_err());
        assert!(brief("c1").check(&["c1".to_owned()]).is_ok());
    }
}
