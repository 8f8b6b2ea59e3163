//! Use cases: what a person or a process asks of Hibiki, composed from the domain's rules
//! and one `Store`; the API's handlers parse, call one of these, and wrap the answer. A use
//! case that hands work on (a push, a mail) takes a [`Context`]: the store, the queues and the bots' clients.

pub mod bots;
pub mod brief;
pub mod channels;
pub mod devices;
pub mod mail;
pub mod reminders;
pub mod ring;
pub mod signin;
pub mod transfer;
pub mod triggers;

use crate::infra::bots::Bots;
use crate::infra::queue::Queues;
use crate::infra::storage::Store;

/// What a use case that enqueues (or asks a bot's platform) works with.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub store: &'a Store,
    pub queues: &'a Queues,
    pub bots: &'a Bots,
}
