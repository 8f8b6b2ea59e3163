//! Integration tests: the real Hibiki on an ephemeral port, spoken to over HTTP, on SQLite and
//! on PostgreSQL.

mod account;
mod accounts;
mod admin;
mod auth;
mod calendar;
mod channels;
mod delivery;
mod details;
mod document;
mod guessing;
mod hardening;
mod health;
mod helpers;
mod hostile;
mod households;
mod housekeeping;
mod lists;
mod reminders;
mod rhythm;
mod schedules;
mod sharing;
mod tools;
mod trust;
mod web;
