//! Use cases: what a person or a process asks of Hibiki, composed from the domain's rules
//! and one `Store`; the API's handlers parse, call one of these, and wrap the answer. A use
//! case that hands work on (a push, a mail) takes a [`Context`]: the store and the queues.

pub mod bots;
pub mod brief;
pub mod reminders;
pub mod ring;
pub mod signin;
pub mod transfer;
pub mod triggers;

use crate::infra::queue::Queues;
use crate::infra::storage::Store;

/// What a use case that enqueues works with.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub store: &'a Store,
    pub queues: &'a Queues,
}
