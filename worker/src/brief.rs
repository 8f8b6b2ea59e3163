//! The daily brief in words: one line per reminder of the rest of the day (its local time and
//! title), then the snoozed ones and the overdue ones; with "hide content", only how many.

use hibiki_common::domain::brief::Brief;
use hibiki_common::domain::states::Language;
use hibiki_common::domain::zone::Zone;
use jiff::Timestamp;

use crate::texts::{self, Mail, MailText};

fn clock(at: Timestamp, zone: &Zone) -> String {
    hibiki_common::domain::time::hh_mm(at, zone)
}

/// The brief's lines (the push's body, the mail's list).
pub fn lines(brief: &Brief, lang: Language, zone: &Zone, hide_content: bool) -> String {
    let t = texts::push(lang);
    if hide_content {
        return texts::fill(&t.brief_hidden, &[("count", &brief.count().to_string())]);
    }
    let mut out: Vec<String> = brief.today.iter().map(|(at, title)| format!("{} {title}", clock(*at, zone))).collect();
    out.extend(brief.snoozed.iter().map(|(at, title)| texts::fill(&t.brief_snoozed, &[("time", &clock(*at, zone)), ("title", title)])));
    out.extend(brief.overdue.iter().map(|title| texts::fill(&t.brief_overdue, &[("title", title)])));
    out.join("\n")
}

/// The brief by email.
pub fn mail(brief: &Brief, lang: Language, zone: &Zone, hide_content: bool, public_url: &str) -> Mail {
    let link = crate::payload::app_url(public_url, lang, "/reminders");
    let settings = crate::payload::app_url(public_url, lang, "/settings");
    MailText::Brief.fill(
        lang,
        &[
            ("count", &brief.count().to_string()),
            ("list", &lines(brief, lang, zone, hide_content)),
            ("link", &link),
            ("settings", &settings),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief() -> Brief {
        Brief {
            today: vec![("2026-11-26T22:30:00Z".parse().unwrap(), "Pills".into())],
            overdue: vec!["Rent".into()],
            snoozed: vec![("2026-11-27T01:00:00Z".parse().unwrap(), "Call Aki".into())],
        }
    }

    #[test]
    fn a_brief_lists_times_in_the_persons_zone_in_both_languages() {
        let tokyo = Zone::parse("Asia/Tokyo").unwrap();
        assert_eq!(lines(&brief(), Language::En, &tokyo, false), "07:30 Pills\n10:00 Call Aki (snoozed)\nOverdue: Rent");
        assert_eq!(lines(&brief(), Language::Ja, &tokyo, false), "07:30 Pills\n10:00 Call Aki（スヌーズ中）\n期限切れ: Rent");
        let hidden = lines(&brief(), Language::En, &tokyo, true);
        assert!(hidden.contains('3') && !hidden.contains("Pills"), "{hidden}");
        let m = mail(&brief(), Language::Ja, &tokyo, false, "https://h.example");
        assert_eq!(m.subject, "今日のリマインダー（3件）");
        assert!(m.body.contains("07:30 Pills") && m.body.contains("https://h.example/reminders"), "{}", m.body);
    }
}
