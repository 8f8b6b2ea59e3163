//! The mail worker: renders each job in the recipient's language and sends it through
//! lettre, over SMTP when `HIBIKI_SMTP_URL` is set, otherwise into `<data dir>/outbox/` and
//! the log (the embedded default needs no mail server).

use std::path::PathBuf;

use secrecy::ExposeSecret;
use std::time::Duration;

use hibiki_common::domain::states::Language;
use hibiki_common::domain::zone::Zone;
use hibiki_common::infra::config::Config;
use hibiki_common::infra::jobs::MailJob;
use hibiki_common::infra::storage::{FallbackMail, InviteMail, Store};
use hibiki_common::usecases::signin;

use crate::payload::app_url;
use crate::texts::{Mail, MailText};
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, Message};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid address: {0}")]
    Address(#[from] lettre::address::AddressError),
    #[error("could not build the message: {0}")]
    Build(#[from] lettre::error::Error),
    #[error("SMTP: {0}")]
    Smtp(#[from] lettre::transport::smtp::Error),
    #[error("outbox: {0}")]
    Outbox(#[from] std::io::Error),
    #[error("database: {0}")]
    Store(#[source] hibiki_common::Error),
}

impl MailError {
    /// Worth another try: a temporary SMTP answer or a connection problem.
    fn is_transient(&self) -> bool {
        match self {
            MailError::Smtp(e) => e.is_transient() || e.is_timeout() || !e.is_permanent(),
            MailError::Outbox(_) => true,
            _ => false,
        }
    }
}

pub enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Outbox(PathBuf),
}

pub struct Mailer {
    transport: Transport,
    from: Mailbox,
    public_url: String,
    /// The public URL is this machine (a laptop with no mail server): the log may show a
    /// sign-in code, so the person can read it there.
    log_codes: bool,
}

/// What a mail says, resolved from its job (a sign-in mail's code and link are read sealed
/// from the database by the worker; the queue never holds them).
#[derive(Debug, Clone)]
pub enum Letter {
    /// The 6-digit code and the link; only the link while code sign-in is blocked.
    SignIn {
        code: Option<String>,
        link_token: String,
    },
    Test,
}

/// Subject and plain-text body of a letter, in `lang` (the words: `worker/texts`).
pub fn render(letter: &Letter, lang: Language, public_url: &str) -> (String, String) {
    let base = public_url.trim_end_matches('/');
    let Mail { subject, body } = match letter {
        Letter::SignIn { code, link_token } => {
            let link = app_url(base, lang, &format!("/auth/callback#token={link_token}"));
            match code {
                Some(code) => MailText::SignInCode.fill(lang, &[("code", code), ("link", &link)]),
                None => MailText::SignInLink.fill(lang, &[("link", &link)]),
            }
        }
        Letter::Test => {
            let home = if lang == Language::Ja { format!("{base}/") } else { format!("{base}/en") };
            MailText::Test.fill(lang, &[("link", &home)])
        }
    };
    (subject, body)
}

/// "11月24日(火) 9:00" / "Tue, Nov 24, 9:00 AM" in the reminder's zone, with the year and the
/// zone's abbreviation so the mail reads right wherever it is opened.
fn when(at: jiff::Timestamp, zone: &Zone, lang: Language) -> String {
    let z = at.to_zoned(zone.tz().clone());
    if lang == Language::Ja {
        const DAYS: [&str; 7] = ["月", "火", "水", "木", "金", "土", "日"];
        let day = DAYS[z.weekday().to_monday_zero_offset() as usize];
        format!("{}年{}月{}日({day}) {}:{:02}{} ({})", z.year(), z.month(), z.day(), z.hour(), z.minute(), seconds(&z), z.strftime("%Z"))
    } else {
        let (h, ampm) = match z.hour() {
            0 => (12, "AM"),
            h @ 1..=11 => (h, "AM"),
            12 => (12, "PM"),
            h => (h - 12, "PM"),
        };
        format!("{}, {h}:{:02}{} {ampm} ({})", z.strftime("%a, %b %-d, %Y"), z.minute(), seconds(&z), z.strftime("%Z"))
    }
}

fn seconds(z: &jiff::Zoned) -> String {
    if z.second() == 0 { String::new() } else { format!(":{:02}", z.second()) }
}

/// Subject and body of a fallback email: the reminder no device showed, in the user's
/// language; with "hide content" only that a reminder is due.
pub fn render_fallback(m: &FallbackMail, public_url: &str) -> (String, String) {
    let base = public_url.trim_end_matches('/');
    // `from=email`: the page says it was opened from the email, not from a notification.
    let link = app_url(base, m.language, &format!("/reminders?reminder={}&from=email", m.reminder_id));
    let settings = app_url(base, m.language, "/settings");
    let at = when(m.occurrence_at, &m.timezone, m.language);
    let description = m.description.as_deref().map(str::trim).filter(|d| !d.is_empty()).map(|d| format!("{d}\n")).unwrap_or_default();
    let text = if m.hide_content { MailText::FallbackHidden } else { MailText::Fallback };
    let Mail { subject, body } =
        text.fill(m.language, &[("title", &m.title), ("description", &description), ("at", &at), ("link", &link), ("settings", &settings)]);
    (subject, body)
}

impl Mailer {
    pub fn from_config(config: &Config) -> anyhow::Result<Mailer> {
        let transport = match &config.smtp_url {
            Some(url) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose_secret())?.timeout(Some(Duration::from_secs(20))).build(),
            ),
            None => Transport::Outbox(hibiki_common::infra::outbox::dir(&config.data_dir)),
        };
        Ok(Mailer {
            transport,
            from: config.mail_from.parse()?,
            public_url: config.public_url.to_string(),
            log_codes: config.public_url_is_loopback(),
        })
    }

    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    /// Sends a mail. `code` is the sign-in code it carries, if any: in outbox mode on a laptop
    /// the log shows it (the log never shows a mail's body).
    pub async fn send_text(&self, to: &str, subject: String, body: String, code: Option<&str>) -> Result<(), MailError> {
        let message = Message::builder()
            .from(self.from.clone())
            .to(to.parse()?)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body.clone())?;
        match &self.transport {
            Transport::Smtp(smtp) => {
                smtp.send(message).await?;
            }
            Transport::Outbox(dir) => {
                hibiki_common::infra::files::create_private_dir(dir)?;
                let name = format!("{}-{}.eml", jiff::Timestamp::now().as_millisecond(), uuid_like());
                let path = dir.join(&name);
                hibiki_common::infra::files::write_private(&path, &message.formatted())?;
                // The embedded default has no mail server: the log says where the mail is, and
                // on a laptop the sign-in code itself. Never the body: fallback mails carry
                // reminder titles.
                let to = hibiki_common::domain::email::mask(to);
                match code.filter(|_| self.log_codes) {
                    Some(code) => tracing::info!(%to, file = %path.display(), code, "mail written to the outbox (no SMTP configured)"),
                    None => tracing::info!(%to, file = %path.display(), "mail written to the outbox (no SMTP configured)"),
                }
            }
        }
        Ok(())
    }
}

fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}", std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed))
}

/// A job made ready: to whom, what, and the secret it carries (forgotten once sent).
struct Ready {
    to: hibiki_common::domain::email::Email,
    subject: String,
    body: String,
    code: Option<String>,
    secret: Option<Secret>,
}

/// The row whose sealed copy of a mail's secret goes once the mail is sent.
enum Secret {
    /// A pending sign-in, by its reference.
    SignIn(String),
    Invite(hibiki_common::domain::ids::InviteId),
}

/// Reads what a job names from the database and renders it in the recipient's language
/// (their saved language wins over the request's hint: a new address has none yet). `None`:
/// nothing to send any more (the code was used or replaced, the account or reminder is gone).
async fn prepare(mailer: &Mailer, store: &Store, job: &MailJob) -> Result<Option<Ready>, MailError> {
    let (db, keys) = (&store.db, &store.keys);
    let now = jiff::Timestamp::now();
    match job {
        MailJob::SignIn { sign_in, lang } => {
            let Some(mail) = signin::sign_in_mail(store, sign_in, now).await.map_err(MailError::Store)? else {
                tracing::info!("sign-in email dropped: its code was used, replaced or already sent");
                return Ok(None);
            };
            let lang = db.user_language(&mail.email).await.ok().flatten().unwrap_or(*lang);
            let letter = Letter::SignIn { code: mail.secret.code.clone(), link_token: mail.secret.link_token };
            let (subject, body) = render(&letter, lang, mailer.public_url());
            Ok(Some(Ready { to: mail.email, subject, body, code: mail.secret.code, secret: Some(Secret::SignIn(sign_in.clone())) }))
        }
        MailJob::Test { user_id, lang } => {
            let Some((to, saved)) = db.mail_recipient(user_id).await.map_err(MailError::Store)? else {
                tracing::info!(%user_id, "test email dropped: the account is gone");
                return Ok(None);
            };
            let (subject, body) = render(&Letter::Test, saved.unwrap_or(*lang), mailer.public_url());
            Ok(Some(Ready { to, subject, body, code: None, secret: None }))
        }
        MailJob::Fallback { user_id, log_id, .. } => {
            let Some((to, _)) = db.mail_recipient(user_id).await.map_err(MailError::Store)? else {
                tracing::info!(%user_id, "fallback email dropped: the account is gone");
                return Ok(None);
            };
            match db.fallback_mail(keys, log_id, user_id).await {
                Ok(Some(m)) if !m.settled => {
                    let (subject, body) = render_fallback(&m, mailer.public_url());
                    Ok(Some(Ready { to, subject, body, code: None, secret: None }))
                }
                Ok(_) => {
                    tracing::info!(%log_id, "fallback email dropped: the reminder was acted on or deleted");
                    Ok(None)
                }
                Err(e) => {
                    tracing::warn!(error = %e, %log_id, "could not read a fallback email's reminder");
                    Err(MailError::Store(e))
                }
            }
        }
        MailJob::Brief { user_id } => {
            let Some((to, _)) = db.mail_recipient(user_id).await.map_err(MailError::Store)? else {
                return Ok(None);
            };
            let (brief, settings) = hibiki_common::usecases::brief::today(store, user_id, now).await.map_err(MailError::Store)?;
            if brief.is_empty() {
                tracing::debug!(%user_id, "daily brief not sent: nothing today");
                return Ok(None);
            }
            let Mail { subject, body } =
                crate::brief::mail(&brief, settings.language, &settings.timezone, settings.hide_notification_content, mailer.public_url());
            Ok(Some(Ready { to, subject, body, code: None, secret: None }))
        }
        MailJob::Escalation { user_id, log_id } => {
            let Some((to, _)) = db.mail_recipient(user_id).await.map_err(MailError::Store)? else { return Ok(None) };
            match db.fallback_mail(keys, log_id, user_id).await.map_err(MailError::Store)? {
                Some(m) if !m.settled => {
                    let (subject, body) = render_escalation(&m, mailer.public_url());
                    Ok(Some(Ready { to, subject, body, code: None, secret: None }))
                }
                _ => Ok(None),
            }
        }
        MailJob::Invite { invite_id, .. } => {
            let Some(m) = db.invite_mail(keys, invite_id).await.map_err(MailError::Store)? else {
                tracing::info!(%invite_id, "invitation email dropped: it was sent, cancelled or accepted");
                return Ok(None);
            };
            let (subject, body) = render_invite(&m, mailer.public_url());
            Ok(Some(Ready { to: m.to, subject, body, code: None, secret: Some(Secret::Invite(*invite_id)) }))
        }
    }
}

/// A repeat's escalation by email: the ring again, saying it went unanswered.
pub fn render_escalation(m: &FallbackMail, public_url: &str) -> (String, String) {
    let base = public_url.trim_end_matches('/');
    let link = app_url(base, m.language, &format!("/reminders?reminder={}&from=email", m.reminder_id));
    let at = when(m.occurrence_at, &m.timezone, m.language);
    let description = m.description.as_deref().map(str::trim).filter(|d| !d.is_empty()).map(|d| format!("{d}\n")).unwrap_or_default();
    let text = if m.hide_content { MailText::EscalationHidden } else { MailText::Escalation };
    let Mail { subject, body } = text.fill(m.language, &[("title", &m.title), ("description", &description), ("at", &at), ("link", &link)]);
    (subject, body)
}

/// An invitation mail, in the inviter's language: who invites (their address), the list, the
/// address to sign in with, and the link (`/invite#token=…`, under `/en` for English).
pub fn render_invite(m: &InviteMail, public_url: &str) -> (String, String) {
    let link = app_url(public_url, m.language, &format!("/invite#token={}", m.token));
    let Mail { subject, body } = MailText::Invite
        .fill(m.language, &[("inviter", m.inviter.as_str()), ("list", &m.list_name), ("email", m.to.as_str()), ("link", &link)]);
    (subject, body)
}

/// Sends one mail job. Temporary SMTP failures are retried here with backoff; the error of
/// the last try is returned. A sign-in mail's secrets are forgotten once it is sent (or
/// refused for good).
pub async fn send_job(mailer: &Mailer, store: &Store, job: &MailJob) -> Result<(), MailError> {
    let Some(ready) = prepare(mailer, store, job).await? else { return Ok(()) };
    let forget = || async {
        let forgot = match &ready.secret {
            Some(Secret::SignIn(reference)) => signin::sign_in_mail_sent(store, reference).await.map_err(|e| e.to_string()),
            Some(Secret::Invite(id)) => store.db.invite_mail_sent(id).await.map_err(|e| e.to_string()),
            None => Ok(()),
        };
        if let Err(e) = forgot {
            tracing::warn!(error = %e, "could not forget a sent mail's secret");
        }
    };
    let mut delay = Duration::from_secs(1);
    let mut attempt = 1;
    loop {
        match mailer.send_text(ready.to.as_str(), ready.subject.clone(), ready.body.clone(), ready.code.as_deref()).await {
            Ok(()) => {
                metrics::counter!(hibiki_common::metric_names::MAIL_SENT_TOTAL).increment(1);
                forget().await;
                return Ok(());
            }
            Err(e) if e.is_transient() && attempt < 4 => {
                tracing::warn!(error = %e, attempt, "mail failed for now, retrying");
                tokio::time::sleep(delay).await;
                delay *= 2;
                attempt += 1;
            }
            Err(e) if e.is_transient() => {
                // Still failing: the queue tries the job again later.
                metrics::counter!(hibiki_common::metric_names::MAIL_FAILED_TOTAL, "kind" => "temporary").increment(1);
                tracing::error!(error = %e, "mail failed for now, giving the job back to the queue");
                return Err(e);
            }
            Err(e) => {
                // A permanent refusal (5xx, an address the server will not take): trying again
                // cannot help, so the job ends here.
                metrics::counter!(hibiki_common::metric_names::MAIL_FAILED_TOTAL, "kind" => "permanent").increment(1);
                tracing::error!(error = %e, to = %ready.to.masked(), "mail refused for good, not retried");
                forget().await;
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_in_mail_carries_code_and_link_in_both_languages() {
        let job = Letter::SignIn { code: Some("123456".into()), link_token: "tok".into() };
        for &lang in Language::ALL {
            let (subject, body) = render(&job, lang, "https://hibiki.example/");
            assert!(subject.contains("123456"));
            assert!(body.contains("123456"));
            assert!(body.contains("https://hibiki.example/") && body.contains("auth/callback#token=tok"), "{body}");
        }
        assert!(render(&job, Language::Ja, "x").1.contains("ログインコード"));
        assert!(render(&job, Language::En, "x").1.contains("sign-in code"));
    }

    #[test]
    fn while_code_sign_in_is_blocked_the_mail_carries_only_the_link() {
        let job = Letter::SignIn { code: None, link_token: "tok".into() };
        for (lang, words) in [(Language::Ja, "コードでのログインを止めています"), (Language::En, "signing in with a code is paused")]
        {
            let (subject, body) = render(&job, lang, "https://hibiki.example");
            assert!(body.contains("auth/callback#token=tok") && body.contains(words), "{body}");
            assert!(
                !body.lines().any(|l| {
                    let l = l.trim();
                    l.len() == 6 && l.bytes().all(|b| b.is_ascii_digit())
                }),
                "no code line"
            );
            assert!(!subject.chars().any(|c| c.is_ascii_digit()), "{subject}");
        }
    }

    pub(super) fn fallback(language: Language, hide_content: bool) -> FallbackMail {
        FallbackMail {
            reminder_id: "11111111-1111-4111-8111-111111111111".parse().unwrap(),
            title: "歯医者".into(),
            description: Some("保険証を持っていく".into()),
            occurrence_at: "2026-11-24T00:00:30Z".parse().unwrap(),
            timezone: Zone::parse("Asia/Tokyo").unwrap(),
            language,
            hide_content,
            settled: false,
        }
    }

    #[test]
    fn fallback_mail_in_both_languages_honours_hide_content() {
        let (subject, body) = render_fallback(&fallback(Language::Ja, false), "https://hibiki.example/");
        assert_eq!(subject, "Hibiki リマインダー: 歯医者");
        assert!(body.contains("保険証を持っていく"), "{body}");
        assert!(body.contains("2026年11月24日(火) 9:00:30 (JST)"), "{body}");
        assert!(body.contains("https://hibiki.example/reminders?reminder=11111111-1111-4111-8111-111111111111&from=email"), "{body}");
        let (subject, body) = render_fallback(&fallback(Language::En, false), "https://hibiki.example");
        assert_eq!(subject, "Hibiki reminder: 歯医者");
        assert!(body.contains("Tue, Nov 24, 2026, 9:00:30 AM (JST)"), "{body}");
        assert!(body.contains("https://hibiki.example/en/reminders?reminder=11111111-1111-4111-8111-111111111111"), "{body}");
        for &lang in Language::ALL {
            let (subject, body) = render_fallback(&fallback(lang, true), "https://hibiki.example");
            assert!(!subject.contains("歯医者") && !body.contains("歯医者") && !body.contains("保険証"), "{lang}: {subject} {body}");
            assert!(body.contains("reminders?reminder=11111111-1111-4111-8111-111111111111"));
        }
    }

    #[test]
    fn invitation_mail_in_the_inviters_language_links_to_the_invite_page() {
        let mail = |language| InviteMail {
            to: hibiki_common::domain::email::Email::parse("guest@example.com").unwrap(),
            token: "tok_en".into(),
            list_name: "ゴミ出し".into(),
            inviter: hibiki_common::domain::email::Email::parse("owner@example.com").unwrap(),
            language,
        };
        let (subject, body) = render_invite(&mail(Language::Ja), "https://hibiki.example/");
        assert!(subject.contains("ゴミ出し") && subject.contains("owner@example.com"), "{subject}");
        assert!(body.contains("https://hibiki.example/invite#token=tok_en\n"), "{body}");
        assert!(body.contains("guest@example.com") && body.contains("7 日間"), "{body}");
        let (subject, body) = render_invite(&mail(Language::En), "https://hibiki.example");
        assert!(subject.contains("invites you"), "{subject}");
        assert!(body.contains("https://hibiki.example/en/invite#token=tok_en\n") && body.contains("7 days"), "{body}");
    }
}
