//! Hibiki's shared core: configuration, domain rules, storage and job types.
//!
//! Everything here is plain Rust that the API, scheduler and worker crates call; nothing in
//! this crate speaks HTTP.

pub mod domain;
pub mod error;
pub mod infra;
pub mod metric_names;
pub mod usecases;

pub use error::{Error, Result};
