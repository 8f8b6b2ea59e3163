//! The states and kinds that cross the database, the queue and the API, as enums: what a
//! delivery log entry and each device's delivery can be, what a notification action is.
//! Stored as the same lower-case words the contract uses.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Declares an enum with its stored/wire names, `as_str` and a lenient `parse`.
macro_rules! word_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $word:literal),+ $(,)? }) => {
        $(#[$meta])*
        // snake_case gives each variant its word (the test below holds them equal); utoipa
        // reads `rename_all` where it would not read a macro's per-variant `rename`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word),+
                }
            }

            /// The state for a stored word; None for one this version does not know.
            pub fn parse(word: &str) -> Option<$name> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

word_enum! {
    /// What happened to a delivery log entry.
    EntryStatus {
        /// Waiting to be pushed (or being pushed).
        Queued = "queued",
        /// At least one device's push service took it.
        Sent = "sent",
        /// A device's service worker showed it (computed from the devices' acknowledgements).
        Shown = "shown",
        /// No device's push service took it.
        Failed = "failed",
        /// The user had no device to send it to.
        NoDevices = "no_devices",
        /// Too late to deliver after downtime.
        Missed = "missed",
        /// The reminder was deleted before it went out.
        Cancelled = "cancelled",
        /// Every person it rings for is in their quiet hours: it waits for their end (the API
        /// shows it `queued`, with `held_until`).
        Held = "held",
    }
}

word_enum! {
    /// One device's part in an entry.
    DeviceDeliveryStatus {
        /// Claimed by a worker, in flight.
        Sending = "sending",
        Sent = "sent",
        Failed = "failed",
        /// The push service said the subscription no longer exists (404/410).
        Gone = "gone",
        /// To be tried again.
        Retry = "retry",
    }
}

word_enum! {
    /// Why an entry was made.
    EntryKind {
        /// The occurrence itself (or an alert of 0 minutes).
        Occurrence = "occurrence",
        Alert = "alert",
        Repeat = "repeat",
        Snooze = "snooze",
        SendNow = "send_now",
        /// Rung by a trigger link (a Shortcut, an NFC tag, Home Assistant).
        Trigger = "trigger",
        /// A repeat-until-done step that reached further (email, channels, another member).
        Escalation = "escalation",
    }
}

word_enum! {
    /// A notification's actions, from the app or the service worker.
    NotificationAction {
        Complete = "complete",
        Snooze = "snooze",
    }
}

word_enum! {
    /// A pending fire of a reminder: its next occurrence, or the snooze of one.
    FireKind {
        Occurrence = "occurrence",
        Snooze = "snooze",
        /// An alert before an occurrence.
        Alert = "alert",
        /// Repeat until done: the occurrence again.
        Repeat = "repeat",
        /// Rings held for quiet hours: due at the earliest end among them.
        Held = "held",
    }
}

word_enum! {
    /// The language of the app, the mail and the push text.
    Language {
        Ja = "ja",
        En = "en",
    }
}

impl Language {
    /// `ja` for a `ja` or `ja-*` hint; English otherwise (the spec's default).
    pub fn from_hint(hint: Option<&str>) -> Language {
        match hint.map(|l| l.trim().to_ascii_lowercase()) {
            Some(l) if l == "ja" || l.starts_with("ja-") => Language::Ja,
            _ => Language::En,
        }
    }
}

impl EntryStatus {
    /// The status a person sees: an entry a device acknowledged is `shown`, whatever the
    /// push service said or whether the entry is settled yet.
    pub fn as_seen(self, shown_by_a_device: bool) -> EntryStatus {
        match self {
            EntryStatus::Queued | EntryStatus::Sent | EntryStatus::Failed if shown_by_a_device => EntryStatus::Shown,
            // The contract's words: a held entry is still queued (its `held_until` says till when).
            EntryStatus::Held => EntryStatus::Queued,
            other => other,
        }
    }

    /// An entry that went nowhere: no email fallback for it.
    pub fn never_delivered(self) -> bool {
        matches!(self, EntryStatus::Cancelled | EntryStatus::Missed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_match_serde() {
        for s in EntryStatus::ALL {
            assert_eq!(EntryStatus::parse(s.as_str()), Some(*s));
            assert_eq!(serde_json::to_value(s).unwrap(), serde_json::json!(s.as_str()));
        }
        for k in EntryKind::ALL {
            assert_eq!(EntryKind::parse(&k.to_string()), Some(*k));
            assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.as_str()));
        }
        for d in DeviceDeliveryStatus::ALL {
            assert_eq!(serde_json::to_value(d).unwrap(), serde_json::json!(d.as_str()));
        }
        assert_eq!(DeviceDeliveryStatus::parse("gone"), Some(DeviceDeliveryStatus::Gone));
        assert_eq!(EntryStatus::parse("manual"), None);
        assert_eq!(serde_json::from_str::<NotificationAction>("\"snooze\"").unwrap(), NotificationAction::Snooze);
        assert!(serde_json::from_str::<NotificationAction>("\"delete\"").is_err());
        for k in FireKind::ALL {
            assert_eq!(FireKind::parse(k.as_str()), Some(*k));
        }
        for l in Language::ALL {
            assert_eq!(serde_json::to_value(l).unwrap(), serde_json::json!(l.as_str()));
        }
    }

    #[test]
    fn language_from_a_hint() {
        assert_eq!(Language::from_hint(Some("ja")), Language::Ja);
        assert_eq!(Language::from_hint(Some("ja-JP")), Language::Ja);
        assert_eq!(Language::from_hint(Some(" JA ")), Language::Ja);
        assert_eq!(Language::from_hint(Some("en")), Language::En);
        assert_eq!(Language::from_hint(Some("de")), Language::En);
        assert_eq!(Language::from_hint(None), Language::En);
    }

    #[test]
    fn shown_wins_over_what_the_push_service_said() {
        assert_eq!(EntryStatus::Sent.as_seen(true), EntryStatus::Shown);
        assert_eq!(EntryStatus::Queued.as_seen(true), EntryStatus::Shown);
        assert_eq!(EntryStatus::Sent.as_seen(false), EntryStatus::Sent);
        assert_eq!(EntryStatus::NoDevices.as_seen(true), EntryStatus::NoDevices);
        assert!(EntryStatus::Missed.never_delivered() && !EntryStatus::Sent.never_delivered());
    }
}
