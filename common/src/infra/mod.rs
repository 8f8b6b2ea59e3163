//! Infrastructure: what talks to the world. Configuration, keys and sealing, the database
//! (`storage`, whose `Store` owns the pool and the keys), the job queues and their jobs, files.

pub mod bots;
pub mod config;
pub mod crypto;
pub mod files;
pub mod jobs;
pub mod keys;
pub mod outbox;
pub mod queue;
pub mod resolve;
pub mod status;
pub mod storage;
pub mod wake_on_work;
