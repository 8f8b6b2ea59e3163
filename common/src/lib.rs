//! Hibiki's shared core: configuration, domain rules, storage and job types.
//!
//! Everything here is plain Rust that the API, scheduler and worker crates call; nothing in
//! this crate speaks HTTP.

pub mod alarms;
pub mod calendar;
pub mod config;
pub mod crypto;
pub mod device;
pub mod email;
pub mod error;
pub mod files;
pub mod holidays;
pub mod ids;
pub mod jobs;
pub mod keys;
pub mod lifecycle;
pub mod outbox;
pub mod push_endpoint;
pub mod push_message;
pub mod queue;
pub mod recurrence;
pub mod reminder;
pub mod settings;
pub mod signin;
pub mod states;
pub mod status;
pub mod storage;
pub mod time;
pub mod zone;

pub use error::{Error, Result};
