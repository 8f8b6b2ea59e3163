//! What a push says: the payload the service worker receives (api.md's "Push payload"), in
//! the user's language, short enough to stay under push services' size limit.

use serde::Serialize;

/// The payload's JSON must stay under this (the encrypted message under 4096 bytes).
pub const MAX_PAYLOAD_BYTES: usize = 3000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PushPayload {
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reminder_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_token: Option<String>,
    pub title: String,
    pub body: String,
    pub url: String,
    pub tag: String,
    pub lang: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late: Option<bool>,
}

fn is_ja(lang: &str) -> bool {
    lang == "ja"
}

fn app_path(lang: &str, path: &str) -> String {
    if is_ja(lang) { path.to_owned() } else { format!("/en{path}") }
}

/// A reminder's push. With `hide_content`, it says only that a reminder is due.
#[allow(clippy::too_many_arguments)]
pub fn reminder(reminder_id: &str, log_id: &str, action_token: &str, title: &str, description: Option<&str>, lang: &str, hide_content: bool, late: bool) -> PushPayload {
    let (title, body) = if hide_content {
        if is_ja(lang) {
            ("リマインダー".to_owned(), "リマインダーの時間です。アプリで内容を確認してください。".to_owned())
        } else {
            ("Reminder".to_owned(), "A reminder is due. Open Hibiki to see it.".to_owned())
        }
    } else {
        let body = match description.map(str::trim).filter(|d| !d.is_empty()) {
            Some(d) => d.to_owned(),
            None if is_ja(lang) => "リマインダーの時間です。".to_owned(),
            None => "It's time.".to_owned(),
        };
        (title.to_owned(), body)
    };
    let payload = PushPayload {
        kind: "reminder",
        reminder_id: Some(reminder_id.to_owned()),
        log_id: Some(log_id.to_owned()),
        action_token: Some(action_token.to_owned()),
        title,
        body,
        url: app_path(lang, &format!("/reminders?reminder={reminder_id}")),
        tag: reminder_id.to_owned(),
        lang: lang.to_owned(),
        late: late.then_some(true),
    };
    fit(payload, MAX_PAYLOAD_BYTES)
}

pub fn test(lang: &str) -> PushPayload {
    let (title, body) = if is_ja(lang) {
        ("テスト通知", "Hibiki からのテスト通知です。通知は正常に届いています。")
    } else {
        ("Test notification", "This is a test notification from Hibiki. Notifications work.")
    };
    PushPayload {
        kind: "test",
        reminder_id: None,
        log_id: None,
        action_token: None,
        title: title.to_owned(),
        body: body.to_owned(),
        url: app_path(lang, "/"),
        tag: "hibiki-test".to_owned(),
        lang: lang.to_owned(),
        late: None,
    }
}

pub fn to_bytes(payload: &PushPayload) -> Vec<u8> {
    serde_json::to_vec(payload).expect("a payload serializes")
}

/// Shortens the body, then the title (on character boundaries, with an ellipsis), until the
/// JSON fits in `max` bytes. Ids, token, url and tag are never cut.
pub fn fit(mut payload: PushPayload, max: usize) -> PushPayload {
    for field in [Field::Body, Field::Title] {
        if to_bytes(&payload).len() <= max {
            break;
        }
        let text = match field {
            Field::Body => &mut payload.body,
            Field::Title => &mut payload.title,
        };
        let original: Vec<char> = text.chars().collect();
        // Binary search the longest prefix that fits.
        let (mut lo, mut hi) = (0usize, original.len());
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            match field {
                Field::Body => payload.body = shortened(&original, mid),
                Field::Title => payload.title = shortened(&original, mid),
            }
            let fits = serde_json::to_vec(&payload).map(|v| v.len() <= max).unwrap_or(false);
            if fits { lo = mid } else { hi = mid - 1 }
        }
        let text = match field {
            Field::Body => &mut payload.body,
            Field::Title => &mut payload.title,
        };
        *text = shortened(&original, lo);
    }
    payload
}

#[derive(Clone, Copy)]
enum Field {
    Body,
    Title,
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

    #[test]
    fn reminder_payload_in_both_languages() {
        let ja = reminder("r1", "l1", "tok", "歯医者", None, "ja", false, false);
        assert_eq!(ja.url, "/reminders?reminder=r1");
        assert_eq!(ja.body, "リマインダーの時間です。");
        assert_eq!(ja.tag, "r1");
        let en = reminder("r1", "l1", "tok", "Dentist", Some("Bring the card"), "en", false, true);
        assert_eq!(en.url, "/en/reminders?reminder=r1");
        assert_eq!(en.body, "Bring the card");
        let json: serde_json::Value = serde_json::from_slice(&to_bytes(&en)).unwrap();
        assert_eq!(json["type"], "reminder");
        assert_eq!(json["late"], true);
        assert_eq!(json["action_token"], "tok");
        assert!(serde_json::from_slice::<serde_json::Value>(&to_bytes(&ja)).unwrap().get("late").is_none());
    }

    #[test]
    fn hidden_content_says_only_that_a_reminder_is_due() {
        let p = reminder("r1", "l1", "tok", "Secret appointment", Some("details"), "en", true, false);
        let text = String::from_utf8(to_bytes(&p)).unwrap();
        assert!(!text.contains("Secret") && !text.contains("details"));
        assert_eq!(p.reminder_id.as_deref(), Some("r1"));
    }

    #[test]
    fn long_contents_are_shortened_never_the_ids() {
        let title = "題".repeat(200);
        let description = "説明".repeat(2000);
        let p = reminder("reminder-id", "log-id", &"t".repeat(43), &title, Some(&description), "ja", false, false);
        let bytes = to_bytes(&p);
        assert!(bytes.len() <= MAX_PAYLOAD_BYTES, "{}", bytes.len());
        assert!(p.body.ends_with('…'));
        assert_eq!(p.title, title, "the title fits once the body is cut");
        assert_eq!(p.log_id.as_deref(), Some("log-id"));
        let tiny = fit(p.clone(), 400);
        assert!(to_bytes(&tiny).len() <= 400);
        assert!(tiny.title.ends_with('…'));
        assert_eq!(tiny.action_token, p.action_token);
    }

    #[test]
    fn test_payload() {
        assert_eq!(test("ja").title, "テスト通知");
        assert_eq!(test("en").url, "/en/");
    }
}
