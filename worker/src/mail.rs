//! The mail worker: renders each job in the recipient's language and sends it through
//! lettre, over SMTP when `HIBIKI_SMTP_URL` is set, otherwise into `<data dir>/outbox/` and
//! the log (the embedded default needs no mail server).

use std::path::PathBuf;
use std::time::Duration;

use hibiki_common::config::Config;
use hibiki_common::jobs::MailJob;
use hibiki_common::storage::Db;
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
}

/// Subject and plain-text body of a job, in `lang` (`ja` or `en`).
pub fn render(job: &MailJob, lang: &str, public_url: &str) -> (String, String) {
    let base = public_url.trim_end_matches('/');
    match (job, lang) {
        (MailJob::SignIn { code, link_token, .. }, "ja") => (
            format!("Hibiki ログインコード: {code}"),
            format!(
                "Hibiki へのログインコードです。\n\n    {code}\n\nアプリの入力欄にこの6桁のコードを入力してください。コードの有効期限は20分です。\n\n\
                 このメールを開いた端末でログインする場合は、次のリンクからもログインできます:\n{base}/auth/callback#token={link_token}\n\n\
                 コードとリンクはどちらか一度だけ使えます。心当たりがない場合は、このメールを無視してください。\n\n— Hibiki（響き）\n"
            ),
        ),
        (MailJob::SignIn { code, link_token, .. }, _) => (
            format!("Your Hibiki sign-in code: {code}"),
            format!(
                "Here is your Hibiki sign-in code:\n\n    {code}\n\nType these 6 digits into the app. The code expires in 20 minutes.\n\n\
                 To sign in on the device where you opened this email, you can use this link instead:\n{base}/en/auth/callback#token={link_token}\n\n\
                 The code and the link work once, and using one spends both. If you did not ask to sign in, ignore this email.\n\n— Hibiki\n"
            ),
        ),
        (MailJob::Test { .. }, "ja") => (
            "Hibiki テストメール".to_owned(),
            format!("Hibiki からのテストメールです。このメールが届いていれば、メール送信は正常に動作しています。\n\n{base}/\n\n— Hibiki（響き）\n"),
        ),
        (MailJob::Test { .. }, _) => (
            "Hibiki test email".to_owned(),
            format!("This is a test email from Hibiki. If you can read it, email delivery works.\n\n{base}/en\n\n— Hibiki\n"),
        ),
    }
}

impl Mailer {
    pub fn from_config(config: &Config) -> anyhow::Result<Mailer> {
        let transport = match &config.smtp_url {
            Some(url) => Transport::Smtp(AsyncSmtpTransport::<Tokio1Executor>::from_url(url)?.timeout(Some(Duration::from_secs(20))).build()),
            None => Transport::Outbox(config.data_dir.join("outbox")),
        };
        Ok(Mailer { transport, from: config.mail_from.parse()?, public_url: config.public_url.to_string() })
    }

    pub async fn send(&self, job: &MailJob, lang: &str) -> Result<(), MailError> {
        let (subject, body) = render(job, lang, &self.public_url);
        let message = Message::builder()
            .from(self.from.clone())
            .to(job.recipient().parse()?)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body.clone())?;
        match &self.transport {
            Transport::Smtp(smtp) => {
                smtp.send(message).await?;
            }
            Transport::Outbox(dir) => {
                tokio::fs::create_dir_all(dir).await?;
                let name = format!("{}-{}.eml", jiff::Timestamp::now().as_millisecond(), uuid_like());
                tokio::fs::write(dir.join(name), message.formatted()).await?;
                // The embedded default has no mail server: the log is where the code is read.
                tracing::info!(to = job.recipient(), "mail (outbox, no SMTP configured):\n{body}");
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

/// Sends one mail job in the recipient's language: their saved language wins over the
/// request's hint (a new address has none yet). Temporary SMTP failures are retried here with
/// backoff; the error of the last try is returned.
pub async fn send_job(mailer: &Mailer, db: &Db, job: &MailJob) -> Result<(), MailError> {
    let hint = match job {
        MailJob::SignIn { lang, .. } | MailJob::Test { lang, .. } => lang.clone(),
    };
    let lang = db.user_language(job.recipient()).await.ok().flatten().unwrap_or(hint);
    let mut delay = Duration::from_secs(1);
    let mut attempt = 1;
    loop {
        match mailer.send(job, &lang).await {
            Ok(()) => {
                metrics::counter!("hibiki_mail_sent_total").increment(1);
                return Ok(());
            }
            Err(e) if e.is_transient() && attempt < 4 => {
                tracing::warn!(error = %e, attempt, "mail failed, retrying");
                tokio::time::sleep(delay).await;
                delay *= 2;
                attempt += 1;
            }
            Err(e) => {
                metrics::counter!("hibiki_mail_failed_total").increment(1);
                tracing::error!(error = %e, "mail failed");
                return Err(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_in_mail_carries_code_and_link_in_both_languages() {
        let job = MailJob::SignIn { email: "a@b.co".into(), code: "123456".into(), link_token: "tok".into(), lang: "en".into() };
        for lang in ["ja", "en"] {
            let (subject, body) = render(&job, lang, "https://hibiki.example/");
            assert!(subject.contains("123456"));
            assert!(body.contains("123456"));
            assert!(body.contains("https://hibiki.example/") && body.contains("auth/callback#token=tok"), "{body}");
        }
        assert!(render(&job, "ja", "x").1.contains("ログインコード"));
        assert!(render(&job, "en", "x").1.contains("sign-in code"));
    }
}
