//! The domain: Hibiki's values and rules as plain types and pure functions (no I/O): ids,
//! times and zones, reminders, their recurrence, alarms and the fire lifecycle, settings,
//! lists and search, the calendar feed, the push message.

pub mod access;
pub mod alarms;
pub mod bots;
pub mod brief;
pub mod calendar;
pub mod channels;
pub mod device;
pub mod email;
pub mod holidays;
pub mod ical_import;
pub mod ids;
pub mod lifecycle;
pub mod lists;
pub mod push_endpoint;
pub mod push_message;
pub mod quiet;
pub mod recurrence;
pub mod reminder;
pub mod ring;
pub mod routing;
pub mod settings;
pub mod states;
pub mod time;
pub mod tokens;
pub mod transfer;
pub mod triggers;
pub mod zone;
