//! Use cases: what a person or a process asks of Hibiki, composed from the domain's rules
//! and one `Store`; the API's handlers parse, call one of these, and wrap the answer.

pub mod bots;
pub mod brief;
pub mod reminders;
pub mod signin;
pub mod transfer;
pub mod triggers;
