//! Mail a person asks for: an invitation to a list, a test email.

use jiff::{SignedDuration, Timestamp};

use super::Context;
use crate::domain::access::{MAIL_KIND_INVITE, MAIL_KIND_TEST, mail_retry_after};
use crate::domain::email::Email;
use crate::domain::ids::{ListId, UserId};
use crate::domain::lists::Invite;
use crate::infra::jobs::MailJob;
use crate::infra::storage::Db;
use crate::{Error, Result};

/// Seconds until `email` may be sent one more mail of `kind`, or `None` when it may now
/// ([`MAILS_PER_HOUR`](crate::domain::access::MAILS_PER_HOUR) of a kind an hour, whoever asks).
pub(crate) async fn wait_before_mail(db: &Db, email: &Email, kind: &str, now: Timestamp) -> Result<Option<i64>> {
    let (sent, oldest) = db.mail_sent_since(email, kind, now - SignedDuration::from_hours(1)).await?;
    Ok(mail_retry_after(sent, oldest, now))
}

/// The owner of a list invites `email`: the invitation is saved and its mail queued. One
/// address gets at most a few invitations an hour, whoever sends them, so a list cannot be
/// used to flood someone's inbox.
pub async fn invite(cx: Context<'_>, owner: &UserId, list_id: &ListId, email: &Email, now: Timestamp) -> Result<Invite> {
    let db = &cx.store.db;
    if let Some(retry_after) = wait_before_mail(db, email, MAIL_KIND_INVITE, now).await? {
        return Err(Error::RateLimited(retry_after));
    }
    let (made, _token) = db.create_invite(&cx.store.keys, owner, list_id, email, now).await?;
    db.log_mail(email, MAIL_KIND_INVITE, now).await?;
    cx.queues.mail(MailJob::Invite { user_id: *owner, invite_id: made.id }).await.map_err(|_| Error::Unavailable("mail queue"))?;
    Ok(made)
}

/// Queues a test email to the person's own address, in their language, at most
/// [`MAILS_PER_HOUR`](crate::domain::access::MAILS_PER_HOUR) an hour.
pub async fn test_email(cx: Context<'_>, user: &UserId, email: &Email, now: Timestamp) -> Result<()> {
    let db = &cx.store.db;
    if let Some(retry_after) = wait_before_mail(db, email, MAIL_KIND_TEST, now).await? {
        return Err(Error::RateLimited(retry_after));
    }
    let lang = db.settings(user).await?.language;
    db.log_mail(email, MAIL_KIND_TEST, now).await?;
    cx.queues.mail(MailJob::Test { user_id: *user, lang }).await.map_err(|_| Error::Unavailable("mail queue"))
}
