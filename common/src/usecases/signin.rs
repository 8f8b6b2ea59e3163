//! Passwordless sign-in: one email carries a 6-digit code and a link; either signs in once.
//!
//! The rules (decisions.md): codes live 1200 s, are stored only as keyed hashes, are spent
//! atomically and compared in constant time; 5 wrong tries burn a code; 10 consecutive
//! failures block code sign-in for the address, 1 h the first time and twice as long each
//! time after, until a successful sign-in (the link still works, and while code sign-in is
//! blocked the email carries only the link); a resend needs 60 s; at most 3 sign-in emails
//! per address per hour. Only a guess judged against a pending code counts: a guess with no
//! code pending, against a burned code, or losing a race of correct submissions does not.
//! Together that bounds the wrong codes ever judged for an address to 100 in 30 days (10 per
//! block; the blocks of 1 + 2 + … + 256 h fill 511 h, the tenth runs past 720 h).
//! Asking for a code answers the same for known and unknown addresses; accounts are created
//! on first verification.

use jiff::Timestamp;

use crate::domain::access::{
    BLOCK_SECS, CODE_TTL_SECS, FAILURES_BEFORE_BLOCK, MAIL_KIND_SIGN_IN, MAX_CODE_ATTEMPTS, RESEND_AFTER_SECS, SESSION_ABSOLUTE,
    SESSION_TTL,
};
use crate::domain::ids::SessionId;
use crate::domain::states::Language;
use crate::infra::crypto::{hashes_equal, session_hash};
use crate::infra::jobs::MailJob;
use crate::infra::storage::{SessionTtl, Store, StoreOtp, User};

pub const SESSION_LIFETIME: SessionTtl = SessionTtl { sliding: SESSION_TTL, absolute: SESSION_ABSOLUTE };

#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("{0}")]
    EmailInvalid(&'static str),
    #[error("too many requests")]
    RateLimited { retry_after_secs: i64 },
    #[error("Invalid verification code. Please check and try again.")]
    OtpInvalid,
    #[error("Verification code has expired. Please request a new one.")]
    OtpExpired,
    /// A code that a resend replaced: counted as a wrong guess like any other, and answered
    /// so the person looks for the newest email.
    #[error("This code was replaced by a newer one. Please use the code in the newest email.")]
    OtpReplaced,
    /// This guess burned the code, or code sign-in is blocked for the address for a while.
    #[error("Too many wrong codes. Please request a new code.")]
    AttemptsExceeded { retry_after_secs: Option<i64> },
    /// No code is pending for the address (never asked, already used, lost a race of correct
    /// submissions): refused without being judged or counted. Answered as `OTP_INVALID`.
    #[error("Invalid verification code. Please check and try again.")]
    NoCodePending,
    /// The code was burned by earlier wrong guesses: refused without being judged. Answered
    /// as `OTP_ATTEMPTS_EXCEEDED`.
    #[error("Too many wrong codes. Please request a new code.")]
    CodeBurned,
    #[error("This sign-in link is invalid or has expired. Please sign in again.")]
    LinkInvalid,
    #[error(transparent)]
    Store(#[from] crate::Error),
}

type Result<T> = std::result::Result<T, SignInError>;

/// What a successful verification yields: the session token to hand out (only its hash is
/// stored) and the user.
#[derive(Debug)]
pub struct SignedIn {
    pub token: String,
    pub session_id: SessionId,
    pub user: User,
    pub is_new_user: bool,
}

fn secs_until(ms: i64, now: Timestamp) -> i64 {
    ((ms - now.as_millisecond()) as f64 / 1000.0).ceil().max(1.0) as i64
}

/// What asking for a code did: the mail to queue, and whether it carries the code (not while
/// code sign-in is blocked for the address: then only the link).
#[derive(Debug)]
pub struct CodeRequested {
    pub mail: MailJob,
    pub code_sign_in: bool,
}

/// Issues a code and link for `email` and returns the mail job to queue.
pub async fn request_code(store: &Store, raw_email: &str, lang: Language, now: Timestamp) -> Result<CodeRequested> {
    let (db, keys) = (&store.db, &store.keys);
    let email = crate::domain::email::Email::parse(raw_email).map_err(SignInError::EmailInvalid)?;
    if let Some(retry_after_secs) = super::mail::wait_before_mail(db, &email, MAIL_KIND_SIGN_IN, now).await? {
        return Err(SignInError::RateLimited { retry_after_secs });
    }
    let code = keys.otp_code();
    let link_token = keys.token();
    let code_hash = keys.otp_hash("code", email.as_str(), &code);
    let link_hash = keys.otp_hash("link", "", &link_token);
    let code_sign_in = db.code_blocked_until(&email, now).await?.is_none();
    let reference = sign_in_reference(&link_hash);
    let secret = MailSecret { code: code_sign_in.then_some(code), link_token };
    let sealed = keys.seal(&mail_secret_context(&reference), &serde_json::to_vec(&secret).expect("plain data serializes"));
    match db.store_otp(&email, &code_hash, &link_hash, &sealed, lang, now, CODE_TTL_SECS * 1000, RESEND_AFTER_SECS * 1000).await? {
        StoreOtp::Stored => {}
        StoreOtp::Cooldown { retry_after_ms } => {
            return Err(SignInError::RateLimited { retry_after_secs: secs_until(now.as_millisecond() + retry_after_ms, now) });
        }
    }
    db.log_mail(&email, MAIL_KIND_SIGN_IN, now).await?;
    Ok(CodeRequested { mail: MailJob::SignIn { sign_in: reference, lang }, code_sign_in })
}

/// What a sign-in mail carries, sealed in the database until it is sent.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct MailSecret {
    /// None while code sign-in is blocked for the address: the mail carries only the link.
    pub code: Option<String>,
    pub link_token: String,
}

/// A pending sign-in's reference in a mail job: its link's keyed hash, hex.
fn sign_in_reference(link_hash: &[u8]) -> String {
    link_hash.iter().map(|b| format!("{b:02x}")).collect()
}

fn mail_secret_context(reference: &str) -> String {
    format!("sign-in-mail:{reference}")
}

/// A sign-in mail ready to send: the address and what to tell it.
#[derive(Debug)]
pub struct SignInMail {
    pub email: crate::domain::email::Email,
    pub secret: MailSecret,
}

/// The sign-in mail a job names, while its code is pending and unsent; `None` when it was
/// used, replaced by a resend, expired or already sent.
pub async fn sign_in_mail(store: &Store, reference: &str, now: Timestamp) -> crate::Result<Option<SignInMail>> {
    let (db, keys) = (&store.db, &store.keys);
    let Some((email, sealed)) = db.sign_in_mail(reference, now).await? else { return Ok(None) };
    let plain = keys.open(&mail_secret_context(reference), &sealed)?;
    let secret = serde_json::from_slice(&plain).map_err(|_| crate::Error::Crypto)?;
    Ok(Some(SignInMail { email, secret }))
}

/// Forgets a sign-in mail's secrets once it is sent: only their hashes stay.
pub async fn sign_in_mail_sent(store: &Store, reference: &str) -> crate::Result<()> {
    let db = &store.db;
    db.forget_sign_in_mail(reference).await
}

/// Verifies a code. Of concurrent correct submissions exactly one succeeds. Only a guess
/// judged against a pending, unburned code counts towards the block.
pub async fn verify_code(store: &Store, raw_email: &str, code: &str, device: &str, now: Timestamp) -> Result<SignedIn> {
    let (db, keys) = (&store.db, &store.keys);
    let email = crate::domain::email::Email::parse(raw_email).map_err(SignInError::EmailInvalid)?;
    if let Some(until) = db.code_blocked_until(&email, now).await? {
        return Err(SignInError::AttemptsExceeded { retry_after_secs: Some(secs_until(until, now)) });
    }
    let code = code.trim();
    let well_formed = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
    let Some(row) = db.otp_row(&email).await? else {
        return Err(SignInError::NoCodePending);
    };
    if row.expires_at <= now.as_millisecond() {
        return Err(SignInError::OtpExpired);
    }
    if row.attempts >= MAX_CODE_ATTEMPTS {
        return Err(SignInError::CodeBurned);
    }
    let candidate = keys.otp_hash("code", email.as_str(), code);
    if well_formed && hashes_equal(&candidate, &row.code_hash) {
        if let Some(lang) = db.consume_code(&email, &candidate, now, MAX_CODE_ATTEMPTS).await? {
            db.clear_code_failures(&email).await?;
            return start_session(store, &email, lang, device, now).await;
        }
        // Another request spent it (or burned it) between our read and our delete.
        return Err(SignInError::NoCodePending);
    }
    // Judged only if it counts against the live code (the guard caps racing guesses at 5).
    let Some(n) = db.count_wrong_code(&email, MAX_CODE_ATTEMPTS).await? else {
        return Err(SignInError::CodeBurned);
    };
    db.record_code_failure(&email, now, FAILURES_BEFORE_BLOCK, BLOCK_SECS * 1000).await?;
    let replaced = well_formed && row.replaced_code_hash.as_deref().is_some_and(|old| hashes_equal(&candidate, old));
    if n < MAX_CODE_ATTEMPTS {
        Err(if replaced { SignInError::OtpReplaced } else { SignInError::OtpInvalid })
    } else {
        // The fifth wrong try burns the code; say so at once so the user asks for a new one.
        Err(SignInError::AttemptsExceeded { retry_after_secs: None })
    }
}

/// Verifies a sign-in link token (from `/auth/callback#token=…`).
pub async fn verify_link(store: &Store, token: &str, device: &str, now: Timestamp) -> Result<SignedIn> {
    let (db, keys) = (&store.db, &store.keys);
    let token = token.trim();
    if token.is_empty() || token.len() > 128 {
        return Err(SignInError::LinkInvalid);
    }
    let link_hash = keys.otp_hash("link", "", token);
    let Some((email, lang)) = db.consume_link(&link_hash, now).await? else {
        return Err(SignInError::LinkInvalid);
    };
    // The link proves control of the mailbox, so it also lifts a code block.
    db.clear_code_failures(&email).await?;
    start_session(store, &email, lang, device, now).await
}

/// Whose account a sign-in link opens, masked (`a***@example.com`), without spending it:
/// the link page shows it before the person signs in.
pub async fn peek_link(store: &Store, token: &str, now: Timestamp) -> Result<String> {
    let (db, keys) = (&store.db, &store.keys);
    let token = token.trim();
    if token.is_empty() || token.len() > 128 {
        return Err(SignInError::LinkInvalid);
    }
    let link_hash = keys.otp_hash("link", "", token);
    match db.link_email(&link_hash, now).await? {
        Some(email) => Ok(email.masked()),
        None => Err(SignInError::LinkInvalid),
    }
}

/// Signs in without a code (the developer shortcut; the API decides when that is allowed).
/// `device` labels the session in the person's list ("Chrome on Android").
pub async fn start_session(
    store: &Store,
    email: &crate::domain::email::Email,
    lang: Language,
    device: &str,
    now: Timestamp,
) -> Result<SignedIn> {
    let (db, keys) = (&store.db, &store.keys);
    let (user, is_new_user) = db.find_or_create_user(email, lang, now).await?;
    let token = keys.token();
    let session_id = db.create_session(&session_hash(&token), &user.id, device, now, SESSION_LIFETIME).await?;
    db.touch_user(&user.id, now).await?;
    Ok(SignedIn { token, session_id, user, is_new_user })
}

/// The user behind a session token, and the session's id, if the session is live.
pub async fn authenticate(store: &Store, token: &str, now: Timestamp) -> crate::Result<Option<(User, SessionId)>> {
    let db = &store.db;
    if token.is_empty() || token.len() > 128 {
        return Ok(None);
    }
    db.session_user(&session_hash(token), now, SESSION_LIFETIME).await
}

pub async fn sign_out(store: &Store, token: &str) -> crate::Result<()> {
    let db = &store.db;
    db.delete_session(&session_hash(token)).await
}
