//! Hibiki's workers: mail now; Web Push and housekeeping grow here.

pub mod housekeeping;
pub mod delivery;
pub mod ece;
pub mod mail;
pub mod payload;
pub mod runner;
pub mod push;
pub mod recorder;
