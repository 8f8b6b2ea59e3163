//! Job types that cross process boundaries, and the names of their queues. Defined once here
//! so the API (which enqueues) and the worker (which runs) cannot disagree.

use serde::{Deserialize, Serialize};

use crate::domain::ids::{ChannelId, InviteId, LogId, UserId};
use crate::domain::states::Language;

/// Something to send to a person's devices (Web Push), channels or a bot's chat: the job of
/// the push queue (mail has its own, [`MailJob`]). Only the `kind` tag and the fields are
/// serialized, so jobs queued before a rename still run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SendJob {
    /// A delivery log entry: the reminder goes to every device of its user (or `send_to`).
    Deliver { log_id: LogId },
    /// Many entries, usually of one second: a burst travels as a few jobs, not one per push.
    DeliverBatch { log_ids: Vec<LogId> },
    /// `POST /api/notifications?action=test`.
    Test { user_id: UserId },
    /// A shared reminder was completed by `by` from this entry: the others' notifications of
    /// its occurrence are replaced by a quiet `done` one.
    Done { log_id: LogId, by: UserId },
    /// The person's daily brief, composed when it is sent.
    Brief { user_id: UserId },
    /// No device showed an entry to this person: their channels that take the fallback get it.
    ChannelFallback { log_id: LogId, user_id: UserId },
    /// `POST /api/channels/{id}/test`.
    ChannelTest { channel_id: ChannelId },
    /// A reply of the Telegram bot or the LINE channel to what it heard.
    BotReply { reply: crate::usecases::bots::BotReply },
}

/// Entries per `DeliverBatch` job: big enough that a burst is a few queue round trips, small
/// enough that several workers share a burst.
pub const DELIVER_BATCH: usize = 250;

impl SendJob {
    /// The jobs that deliver `log_ids`, [`DELIVER_BATCH`] entries each.
    pub fn deliver_all(log_ids: Vec<LogId>) -> Vec<SendJob> {
        log_ids
            .chunks(DELIVER_BATCH)
            .map(|c| if c.len() == 1 { SendJob::Deliver { log_id: c[0] } } else { SendJob::DeliverBatch { log_ids: c.to_vec() } })
            .collect()
    }
}

/// An email to send. A job names what to send, never a secret or an address: the worker reads
/// the recipient, and a sign-in mail's sealed code and link, from the database, and renders
/// the mail in the recipient's language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MailJob {
    /// A sign-in email (the 6-digit code and the link, or only the link while code sign-in is
    /// blocked), named by its pending sign-in's reference (a keyed hash, hex).
    SignIn { sign_in: String, lang: Language },
    /// `POST /api/test-email`.
    Test { user_id: UserId, lang: Language },
    /// A reminder no device showed (the email fallback). The contents are read from the
    /// database when it is sent, so the queue never holds them.
    Fallback { user_id: UserId, log_id: LogId, lang: Language },
    /// An invitation to a list, sent in the inviter's language; the token is read sealed from
    /// its row when it is sent.
    Invite { user_id: UserId, invite_id: InviteId },
    /// The person's daily brief by email, composed when it is sent.
    Brief { user_id: UserId },
    /// A repeat-until-done escalation step: the ring by email, at once.
    Escalation { user_id: UserId, log_id: LogId },
}

impl MailJob {
    /// The account the job is for, if it names one (a sign-in may be for a new address).
    pub fn user_id(&self) -> Option<&UserId> {
        match self {
            MailJob::SignIn { .. } => None,
            MailJob::Test { user_id, .. }
            | MailJob::Fallback { user_id, .. }
            | MailJob::Invite { user_id, .. }
            | MailJob::Brief { user_id }
            | MailJob::Escalation { user_id, .. } => Some(user_id),
        }
    }
}
