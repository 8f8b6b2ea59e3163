//! What a push says: api.md's push payload in the Declarative Web Push format (`web_push:
//! 8030`), so Safari shows it even when the service worker cannot, and browsers without
//! declarative support hand the same JSON to the service worker. In the user's language, and
//! short enough to stay under push services' size limit.

use hibiki_common::domain::ids::{LogId, ReminderId};
pub use hibiki_common::domain::push_message::{PushAction, PushData, PushMessage, PushNotification, PushType};
use hibiki_common::domain::states::{EntryKind, Language, NotificationAction};

/// The payload's JSON must stay under this (the encrypted message under 4096 bytes).
pub const MAX_PAYLOAD_BYTES: usize = 3000;
/// RFC 8030's number marks a declarative push message.
const DECLARATIVE: u16 = 8030;

/// One delivery log entry's push, before it is put into words.
#[derive(Debug, Clone)]
pub struct ReminderPush<'a> {
    pub reminder_id: &'a ReminderId,
    pub log_id: &'a LogId,
    pub action_token: &'a str,
    pub kind: EntryKind,
    pub title: &'a str,
    pub description: Option<&'a str>,
    pub lang: Language,
    pub hide_content: bool,
    pub late: bool,
    /// Held for quiet hours since this local time (`HH:MM`).
    pub held_from: Option<&'a str>,
    pub overdue: Option<u32>,
}

/// The app's absolute URL of `path` in `lang` (Japanese at the root, English under `/en`).
pub fn app_url(base: &str, lang: Language, path: &str) -> String {
    let base = base.trim_end_matches('/');
    if lang == Language::Ja { format!("{base}{path}") } else { format!("{base}/en{path}") }
}

/// A reminder's push. With `hide_content`, it says only that a reminder is due.
pub fn reminder(p: &ReminderPush<'_>, base: &str) -> PushMessage {
    let texts = crate::texts::push(p.lang);
    let (title, body) = if p.hide_content {
        (texts.hidden_title.clone(), texts.hidden_body.clone())
    } else {
        let body = p.description.map(str::trim).filter(|d| !d.is_empty()).unwrap_or(&texts.plain_body);
        (p.title.to_owned(), body.to_owned())
    };
    // The late mark is part of the title, so a declarative push shows it too.
    let title = if p.late { crate::texts::fill(&texts.late_title, &[("title", &title)]) } else { title };
    let title = match p.held_from {
        Some(time) => crate::texts::fill(&texts.held_title, &[("title", &title), ("time", time)]),
        None => title,
    };
    let page = format!("/reminders?reminder={}", p.reminder_id);
    let action = |action: NotificationAction, title: &str| PushAction {
        action,
        title: title.to_owned(),
        // The entry's action token rides along: a deep link acts only with it (without it, the
        // app asks first), so a link someone was sent cannot complete a reminder by itself.
        navigate: app_url(base, p.lang, &format!("{page}&log={}&do={action}&t={}", p.log_id, p.action_token)),
    };
    let message = PushMessage {
        web_push: DECLARATIVE,
        notification: PushNotification {
            title,
            body,
            navigate: app_url(base, p.lang, &page),
            tag: p.reminder_id.to_string(),
            lang: p.lang,
            silent: false,
            require_interaction: true,
            data: PushData {
                kind: PushType::Reminder,
                reminder_id: Some(*p.reminder_id),
                log_id: Some(*p.log_id),
                action_token: Some(p.action_token.to_owned()),
                entry_kind: Some(p.kind),
                late: p.late.then_some(true),
                held: p.held_from.map(|_| true),
                by: None,
            },
            actions: vec![action(NotificationAction::Complete, &texts.complete), action(NotificationAction::Snooze, &texts.snooze)],
        },
        app_badge: p.overdue,
        mutable: true,
    };
    fit(message, MAX_PAYLOAD_BYTES)
}

/// The test notification: no actions, opens the app.
pub fn test(lang: Language, base: &str) -> PushMessage {
    let texts = crate::texts::push(lang);
    let (title, body) = (&texts.test_title, &texts.test_body);
    PushMessage {
        web_push: DECLARATIVE,
        notification: PushNotification {
            title: title.to_owned(),
            body: body.to_owned(),
            navigate: app_url(base, lang, "/"),
            tag: "hibiki-test".to_owned(),
            lang,
            silent: false,
            require_interaction: true,
            data: PushData::plain(PushType::Test),
            actions: Vec::new(),
        },
        app_badge: None,
        mutable: true,
    }
}

/// The daily brief: the day's lines, opening the reminders page.
pub fn brief(title: &str, body: &str, lang: Language, base: &str) -> PushMessage {
    let message = PushMessage {
        web_push: DECLARATIVE,
        notification: PushNotification {
            title: title.to_owned(),
            body: body.to_owned(),
            navigate: app_url(base, lang, "/reminders"),
            tag: "hibiki-brief".to_owned(),
            lang,
            silent: false,
            require_interaction: false,
            data: PushData::plain(PushType::Brief),
            actions: Vec::new(),
        },
        app_badge: None,
        mutable: true,
    };
    fit(message, MAX_PAYLOAD_BYTES)
}

/// A shared reminder someone else completed: replaces its notification (same tag) quietly,
/// saying who. With `hide_content`, the title stays the hidden one.
pub fn done(reminder_id: &ReminderId, title: &str, by: &str, lang: Language, hide_content: bool, base: &str) -> PushMessage {
    let texts = crate::texts::push(lang);
    let title = if hide_content { texts.hidden_title.clone() } else { title.to_owned() };
    let message = PushMessage {
        web_push: DECLARATIVE,
        notification: PushNotification {
            title,
            body: crate::texts::fill(&texts.done_body, &[("by", by)]),
            navigate: app_url(base, lang, &format!("/reminders?reminder={reminder_id}")),
            tag: reminder_id.to_string(),
            lang,
            silent: true,
            require_interaction: false,
            data: PushData {
                kind: PushType::Done,
                reminder_id: Some(*reminder_id),
                log_id: None,
                action_token: None,
                entry_kind: None,
                late: None,
                held: None,
                by: Some(by.to_owned()),
            },
            actions: Vec::new(),
        },
        app_badge: None,
        mutable: true,
    };
    fit(message, MAX_PAYLOAD_BYTES)
}

pub fn to_bytes(message: &PushMessage) -> Vec<u8> {
    serde_json::to_vec(message).expect("a payload serializes")
}

/// Shortens the body, then the title (on character boundaries, with an ellipsis), until the
/// JSON fits in `max` bytes. Ids, token, URLs and tag are never cut.
pub fn fit(mut message: PushMessage, max: usize) -> PushMessage {
    for field in [Field::Body, Field::Title] {
        if to_bytes(&message).len() <= max {
            break;
        }
        let original: Vec<char> = field.get(&mut message).chars().collect();
        // Binary search the longest prefix that fits.
        let (mut lo, mut hi) = (0usize, original.len());
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            *field.get(&mut message) = shortened(&original, mid);
            if to_bytes(&message).len() <= max { lo = mid } else { hi = mid - 1 }
        }
        *field.get(&mut message) = shortened(&original, lo);
    }
    message
}

#[derive(Clone, Copy)]
enum Field {
    Body,
    Title,
}

impl Field {
    fn get(self, m: &mut PushMessage) -> &mut String {
        match self {
            Field::Body => &mut m.notification.body,
            Field::Title => &mut m.notification.title,
        }
    }
}

fn shortened(chars: &[char], keep: usize) -> String {
    if keep >= chars.len() {
        return chars.iter().collect();
    }
    let mut s: String = chars[..keep].iter().collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://hibiki.example/";

    /// Ids live as long as the test process (a push borrows them).
    fn ids(reminder: &str, log: &str) -> (&'static ReminderId, &'static LogId) {
        (Box::leak(Box::new(reminder.parse().unwrap())), Box::leak(Box::new(log.parse().unwrap())))
    }

    fn push<'a>(title: &'a str, description: Option<&'a str>, lang: Language) -> ReminderPush<'a> {
        let (reminder_id, log_id) = ids("11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222");
        ReminderPush {
            reminder_id,
            log_id,
            action_token: "tok",
            kind: EntryKind::Occurrence,
            title,
            description,
            lang,
            hide_content: false,
            late: false,
            held_from: None,
            overdue: Some(2),
        }
    }

    #[test]
    fn reminder_payload_is_declarative_in_both_languages() {
        let ja = reminder(&push("歯医者", None, Language::Ja), BASE);
        let json: serde_json::Value = serde_json::from_slice(&to_bytes(&ja)).unwrap();
        assert_eq!(json["web_push"], 8030);
        assert_eq!(json["mutable"], true);
        assert_eq!(json["app_badge"], 2);
        let n = &json["notification"];
        assert_eq!(n["navigate"], "https://hibiki.example/reminders?reminder=11111111-1111-4111-8111-111111111111");
        assert_eq!(n["body"], "リマインダーの時間です。");
        assert_eq!(n["tag"], "11111111-1111-4111-8111-111111111111");
        assert_eq!(n["silent"], false);
        assert_eq!(n["require_interaction"], true);
        assert_eq!(
            n["data"],
            serde_json::json!({"type": "reminder", "reminder_id": "11111111-1111-4111-8111-111111111111", "log_id": "22222222-2222-4222-8222-222222222222", "action_token": "tok", "kind": "occurrence"})
        );
        assert_eq!(n["actions"][0]["title"], "完了");
        assert_eq!(
            n["actions"][1]["navigate"],
            "https://hibiki.example/reminders?reminder=11111111-1111-4111-8111-111111111111&log=22222222-2222-4222-8222-222222222222&do=snooze&t=tok"
        );

        let en = reminder(&ReminderPush { late: true, ..push("Dentist", Some("Bring the card"), Language::En) }, BASE);
        let json: serde_json::Value = serde_json::from_slice(&to_bytes(&en)).unwrap();
        let n = &json["notification"];
        assert_eq!(n["navigate"], "https://hibiki.example/en/reminders?reminder=11111111-1111-4111-8111-111111111111");
        assert_eq!(n["title"], "Dentist (late)");
        assert_eq!(n["body"], "Bring the card");
        assert_eq!(n["data"]["late"], true);
        assert_eq!(
            n["actions"][0]["navigate"],
            "https://hibiki.example/en/reminders?reminder=11111111-1111-4111-8111-111111111111&log=22222222-2222-4222-8222-222222222222&do=complete&t=tok"
        );
        assert_eq!(reminder(&ReminderPush { late: true, ..push("歯医者", None, Language::Ja) }, BASE).notification.title, "歯医者（遅延）");
    }

    #[test]
    fn a_held_ring_says_since_when_in_both_languages() {
        let en = reminder(&ReminderPush { held_from: Some("23:10"), ..push("Pills", None, Language::En) }, BASE);
        assert_eq!(en.notification.title, "Pills (held from 23:10)");
        assert_eq!(en.notification.data.held, Some(true));
        let ja = reminder(&ReminderPush { held_from: Some("23:10"), hide_content: true, ..push("薬", None, Language::Ja) }, BASE);
        assert_eq!(ja.notification.title, "リマインダー（23:10から保留）");
        assert_eq!(reminder(&push("薬", None, Language::Ja), BASE).notification.data.held, None);
    }

    #[test]
    fn hidden_content_says_only_that_a_reminder_is_due() {
        let p = reminder(&ReminderPush { hide_content: true, ..push("Secret appointment", Some("details"), Language::En) }, BASE);
        let text = String::from_utf8(to_bytes(&p)).unwrap();
        assert!(!text.contains("Secret") && !text.contains("details"));
        assert_eq!(p.notification.data.reminder_id.map(|id| id.to_string()).as_deref(), Some("11111111-1111-4111-8111-111111111111"));
    }

    #[test]
    fn long_contents_are_shortened_never_the_ids() {
        let title = "題".repeat(200);
        let description = "説明".repeat(2000);
        let token = "t".repeat(43);
        let (reminder_id, log_id) = ids("33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444");
        let p =
            reminder(&ReminderPush { reminder_id, log_id, action_token: &token, ..push(&title, Some(&description), Language::Ja) }, BASE);
        let bytes = to_bytes(&p);
        assert!(bytes.len() <= MAX_PAYLOAD_BYTES, "{}", bytes.len());
        assert!(p.notification.body.ends_with('…'));
        assert_eq!(p.notification.title, title, "the title fits once the body is cut");
        assert_eq!(p.notification.data.log_id.map(|id| id.to_string()).as_deref(), Some("44444444-4444-4444-8444-444444444444"));
        // Real ids (UUIDs) in every link: the fixed part is about 1 KB.
        let tiny = fit(p.clone(), 1200);
        assert!(to_bytes(&tiny).len() <= 1200);
        assert!(tiny.notification.title.ends_with('…'));
        assert_eq!(tiny.notification.data, p.notification.data);
        assert_eq!(tiny.notification.actions, p.notification.actions);
    }

    #[test]
    fn a_done_message_replaces_the_reminder_quietly_and_says_who() {
        let (reminder_id, _) = ids("11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222");
        let ja = serde_json::to_value(done(reminder_id, "燃えるゴミ", "hanako@example.com", Language::Ja, false, BASE)).unwrap();
        let n = &ja["notification"];
        assert_eq!(n["tag"], "11111111-1111-4111-8111-111111111111");
        assert_eq!((n["silent"].as_bool(), n["title"].as_str()), (Some(true), Some("燃えるゴミ")));
        assert_eq!(n["body"], "hanako@example.com さんが完了しました。");
        assert_eq!((n["data"]["type"].as_str(), n["data"]["by"].as_str()), (Some("done"), Some("hanako@example.com")));
        assert!(n.get("actions").is_none() && n["data"].get("action_token").is_none());
        let en = serde_json::to_value(done(reminder_id, "Rubbish", "hanako@example.com", Language::En, true, BASE)).unwrap();
        assert_eq!(en["notification"]["title"], "Reminder", "hide content keeps the title hidden");
        assert_eq!(en["notification"]["body"], "Done by hanako@example.com.");
        assert_eq!(en["notification"]["navigate"], "https://hibiki.example/en/reminders?reminder=11111111-1111-4111-8111-111111111111");
    }

    #[test]
    fn test_payload() {
        let ja = test(Language::Ja, BASE);
        assert_eq!(ja.notification.title, "テスト通知");
        assert!(ja.notification.actions.is_empty());
        assert_eq!(ja.notification.data.kind, PushType::Test);
        assert_eq!(test(Language::En, "https://h.example").notification.navigate, "https://h.example/en/");
    }
}
