//! The words of Hibiki's mails and pushes, one file per message and language under
//! `worker/texts/{ja,en}/` (a mail: a `Subject:` line, a blank line, the body; the pushes'
//! short texts: `push.json`). Built into the binary. `{{name}}` marks a value, filled in one
//! pass: a value is never read for marks, so a title cannot pull in a link.

use std::collections::HashMap;
use std::sync::OnceLock;

use hibiki_common::domain::states::Language;
use serde::Deserialize;

/// A mail's subject and body, filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub subject: String,
    pub body: String,
}

/// The mails there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailText {
    SignInCode,
    /// Only the link: code sign-in is paused for the address.
    SignInLink,
    Test,
    Fallback,
    /// The fallback with "hide content": only that a reminder is due.
    FallbackHidden,
    /// An invitation to a list.
    Invite,
    /// The daily brief.
    Brief,
    /// A repeat that escalated to email.
    Escalation,
    EscalationHidden,
}

impl MailText {
    pub const ALL: [MailText; 9] = [
        MailText::Escalation,
        MailText::EscalationHidden,
        MailText::SignInCode,
        MailText::SignInLink,
        MailText::Test,
        MailText::Fallback,
        MailText::FallbackHidden,
        MailText::Invite,
        MailText::Brief,
    ];

    fn source(self, lang: Language) -> &'static str {
        match (self, lang) {
            (MailText::SignInCode, Language::Ja) => include_str!("../texts/ja/sign_in_code.txt"),
            (MailText::SignInCode, Language::En) => include_str!("../texts/en/sign_in_code.txt"),
            (MailText::SignInLink, Language::Ja) => include_str!("../texts/ja/sign_in_link.txt"),
            (MailText::SignInLink, Language::En) => include_str!("../texts/en/sign_in_link.txt"),
            (MailText::Test, Language::Ja) => include_str!("../texts/ja/test.txt"),
            (MailText::Test, Language::En) => include_str!("../texts/en/test.txt"),
            (MailText::Fallback, Language::Ja) => include_str!("../texts/ja/fallback.txt"),
            (MailText::Fallback, Language::En) => include_str!("../texts/en/fallback.txt"),
            (MailText::FallbackHidden, Language::Ja) => include_str!("../texts/ja/fallback_hidden.txt"),
            (MailText::FallbackHidden, Language::En) => include_str!("../texts/en/fallback_hidden.txt"),
            (MailText::Invite, Language::Ja) => include_str!("../texts/ja/invite.txt"),
            (MailText::Invite, Language::En) => include_str!("../texts/en/invite.txt"),
            (MailText::Brief, Language::Ja) => include_str!("../texts/ja/brief.txt"),
            (MailText::Brief, Language::En) => include_str!("../texts/en/brief.txt"),
            (MailText::Escalation, Language::Ja) => include_str!("../texts/ja/escalation.txt"),
            (MailText::Escalation, Language::En) => include_str!("../texts/en/escalation.txt"),
            (MailText::EscalationHidden, Language::Ja) => include_str!("../texts/ja/escalation_hidden.txt"),
            (MailText::EscalationHidden, Language::En) => include_str!("../texts/en/escalation_hidden.txt"),
        }
    }

    /// The mail in `lang` with `values` filled in.
    pub fn fill(self, lang: Language, values: &[(&str, &str)]) -> Mail {
        let (subject, body) = split(self.source(lang));
        Mail { subject: fill(subject, values), body: fill(body, values) }
    }
}

fn split(source: &'static str) -> (&'static str, &'static str) {
    let rest = source.strip_prefix("Subject: ").expect("a mail text starts with its subject");
    rest.split_once("\n\n").expect("a blank line after the subject")
}

/// The short texts of a push.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushTexts {
    pub hidden_title: String,
    pub hidden_body: String,
    /// The body of a reminder without a description.
    pub plain_body: String,
    /// `{{title}}` marked late.
    pub late_title: String,
    /// `{{title}}` held for quiet hours since `{{time}}` (local `HH:MM`).
    pub held_title: String,
    pub complete: String,
    pub snooze: String,
    pub test_title: String,
    pub test_body: String,
    /// A shared reminder someone else completed: `{{by}}` names them.
    pub done_body: String,
    /// The daily brief's title.
    pub brief_title: String,
    /// A brief's line for an overdue reminder (`{{title}}`).
    pub brief_overdue: String,
    /// A brief's line for a snoozed one (`{{time}}` it rings again, `{{title}}`).
    pub brief_snoozed: String,
    /// A brief with "hide content": only how many (`{{count}}`).
    pub brief_hidden: String,
    /// The Telegram bot's and LINE channel's replies.
    pub bot_linked: String,
    pub bot_unknown_code: String,
    pub bot_completed: String,
    pub bot_snoozed: String,
    pub bot_gone: String,
    /// An escalation to another member: `{{who}}` has not done `{{title}}` since `{{time}}`.
    pub escalation_title: String,
    /// The same with "hide content" (no `{{title}}`).
    pub escalation_hidden: String,
}

/// The push texts in `lang`.
pub fn push(lang: Language) -> &'static PushTexts {
    static TEXTS: OnceLock<HashMap<Language, PushTexts>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        let parse = |json: &str| serde_json::from_str::<PushTexts>(json).expect("push texts parse (a unit test checks both)");
        HashMap::from([
            (Language::Ja, parse(include_str!("../texts/ja/push.json"))),
            (Language::En, parse(include_str!("../texts/en/push.json"))),
        ])
    });
    &texts[&lang]
}

/// Fills `{{name}}` marks with their values in one pass; a mark without a value stays as it is
/// (a unit test checks every text's marks have values).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let mark = after.find("}}").map(|end| (&after[..end], &after[end + 2..]));
        match mark.and_then(|(name, tail)| Some((values.iter().find(|(k, _)| *k == name)?.1, tail))) {
            Some((value, tail)) => {
                out.push_str(value);
                rest = tail;
            }
            _ => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The marks a text uses.
pub fn marks(template: &str) -> Vec<&str> {
    template.split("{{").skip(1).filter_map(|part| part.split_once("}}").map(|(name, _)| name)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_never_read_for_marks() {
        let filled = fill("{{title}} / {{link}}", &[("title", "{{link}}"), ("link", "https://x/")]);
        assert_eq!(filled, "{{link}} / https://x/");
        assert_eq!(fill("{{unknown}} {{", &[]), "{{unknown}} {{");
    }

    #[test]
    fn every_mail_exists_in_both_languages_with_the_same_marks() {
        for text in MailText::ALL {
            let (ja_subject, ja_body) = split(text.source(Language::Ja));
            let (en_subject, en_body) = split(text.source(Language::En));
            assert!(!ja_subject.is_empty() && !ja_subject.contains('\n') && !en_subject.contains('\n'), "{text:?}");
            let mut ja: Vec<&str> = marks(ja_subject).into_iter().chain(marks(ja_body)).collect();
            let mut en: Vec<&str> = marks(en_subject).into_iter().chain(marks(en_body)).collect();
            ja.sort_unstable();
            ja.dedup();
            en.sort_unstable();
            en.dedup();
            assert_eq!(ja, en, "{text:?}: the languages use different values");
            assert!(ja_body.ends_with("— Hibiki（響き）\n") && en_body.ends_with("— Hibiki\n"), "{text:?} is signed");
        }
    }

    #[test]
    fn push_texts_parse_in_both_languages() {
        for lang in Language::ALL {
            let t = push(*lang);
            assert!(t.late_title.contains("{{title}}"), "{lang:?}");
            assert!(t.held_title.contains("{{title}}") && t.held_title.contains("{{time}}"), "{lang:?}");
            assert!(!t.complete.is_empty() && !t.snooze.is_empty() && !t.test_body.is_empty());
        }
        assert_eq!(push(Language::Ja).complete, "完了");
    }
}
