//! Hibiki's workers: mail now; Web Push and housekeeping grow here.

pub mod bots;
pub mod brief;
pub mod channels;
pub mod delivery;
pub mod ece;
pub mod housekeeping;
pub mod mail;
pub mod payload;
pub mod push;
pub mod recorder;
pub mod runner;
pub mod texts;
