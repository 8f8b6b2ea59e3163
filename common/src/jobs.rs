//! Job types that cross process boundaries, and the names of their queues. Defined once here
//! so the API (which enqueues) and the worker (which runs) cannot disagree.

use serde::{Deserialize, Serialize};

pub const MAIL_QUEUE: &str = "hibiki::mail";

/// An email to send. The worker renders it in the recipient's language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MailJob {
    /// A sign-in email carrying both the 6-digit code and the link token.
    SignIn { email: String, code: String, link_token: String, lang: String },
    /// `POST /api/test-email`.
    Test { email: String, lang: String },
}

impl MailJob {
    pub fn recipient(&self) -> &str {
        match self {
            MailJob::SignIn { email, .. } | MailJob::Test { email, .. } => email,
        }
    }
}

/// The mail queue as the API sees it. In this first version it is an in-process channel to
/// the mail worker task; sending stays off the request path either way, so a slow SMTP
/// server never slows sign-in and answer times don't depend on the address.
#[derive(Debug, Clone)]
pub struct MailQueue {
    tx: tokio::sync::mpsc::Sender<MailJob>,
}

#[derive(Debug, thiserror::Error)]
#[error("the mail queue is full or stopped")]
pub struct QueueUnavailable;

impl MailQueue {
    pub fn channel(capacity: usize) -> (MailQueue, tokio::sync::mpsc::Receiver<MailJob>) {
        let (tx, rx) = tokio::sync::mpsc::channel(capacity);
        (MailQueue { tx }, rx)
    }

    pub fn push(&self, job: MailJob) -> Result<(), QueueUnavailable> {
        self.tx.try_send(job).map_err(|_| QueueUnavailable)
    }

    /// Jobs waiting to be sent.
    pub fn depth(&self) -> usize {
        self.tx.max_capacity() - self.tx.capacity()
    }
}
