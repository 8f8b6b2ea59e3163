//! Export and import (decisions.md "Open to other tools"): everything of a person's as one JSON
//! document, and what an import brings in, item by item, with why the rest was skipped.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::alarms::{Alert, RepeatUntilDone};
use crate::domain::ids::{ListId, ReminderId};
use crate::domain::lists::ListColour;
use crate::domain::recurrence::Recurrence;
use crate::domain::reminder::{Reminder, ReminderInput};
use crate::domain::settings::Settings;

/// The export's format version.
pub const EXPORT_VERSION: u32 = 1;
/// The largest import body.
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;

/// `GET /api/export`: the person's settings, the lists they own and every reminder in them
/// (archived too), with every input field; no secrets (no tokens, channel addresses, devices).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ExportDocument {
    pub version: u32,
    #[schema(value_type = String, format = DateTime)]
    pub exported_at: Timestamp,
    /// For reference: an import does not change the importing account's settings.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Settings>,
    #[serde(default)]
    pub lists: Vec<ExportedList>,
    pub reminders: Vec<ExportedReminder>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ExportedList {
    #[schema(value_type = String)]
    pub id: ListId,
    pub name: String,
    pub colour: ListColour,
    pub is_default: bool,
}

/// A reminder as exported: what re-creates it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ExportedReminder {
    #[schema(value_type = String)]
    pub id: ReminderId,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub list_id: Option<ListId>,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub send_at: Timestamp,
    pub timezone: String,
    #[serde(default)]
    pub recurrence: Recurrence,
    #[serde(default)]
    pub alerts: Option<Vec<Alert>>,
    #[serde(default)]
    pub repeat_until_done: Option<RepeatUntilDone>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    pub break_through: bool,
    /// False for an archived (completed) reminder.
    #[serde(default = "yes")]
    pub is_active: bool,
}

fn yes() -> bool {
    true
}

impl ExportedReminder {
    pub fn of(r: &Reminder) -> ExportedReminder {
        ExportedReminder {
            id: r.id,
            list_id: Some(r.list_id),
            title: r.title.clone(),
            description: r.description.clone(),
            send_at: r.send_at,
            timezone: r.timezone.name().to_owned(),
            recurrence: r.recurrence.clone(),
            alerts: Some(r.alerts.clone()),
            // Steps that reach another member name people of this server only.
            repeat_until_done: r.repeat_until_done.map(RepeatUntilDone::without_members),
            metadata: r.metadata.clone(),
            break_through: r.break_through,
            is_active: r.is_active,
        }
    }

    /// What creating it again takes (in `list_id`, the list it goes to in the new account).
    pub fn input(&self, list_id: Option<ListId>) -> ReminderInput {
        ReminderInput {
            title: self.title.clone(),
            description: self.description.clone(),
            send_at: self.send_at,
            timezone: Some(self.timezone.clone()),
            recurrence: Some(self.recurrence.clone()),
            alerts: self.alerts.clone(),
            repeat_until_done: self.repeat_until_done.map(RepeatUntilDone::without_members),
            send_to: None,
            metadata: self.metadata.clone(),
            list_id,
            assignees: None,
            rotate: None,
            break_through: Some(self.break_through),
        }
    }
}

/// Why an item was not imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// It will never ring again: a time gone, a series ended, a task done, an archived reminder.
    Past,
    /// Its rule is one Hibiki's schedules cannot express exactly (never approximated).
    UnsupportedRule,
    /// Over the 100 active reminders.
    Limit,
    /// Not a reminder Hibiki can make (no time, an unknown zone, a field out of range).
    Invalid,
}

/// One item an import brings in (or, in a dry run, would).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportedItem {
    /// The item as the file names it: a UID, or an exported reminder's id.
    pub item: String,
    pub title: String,
    /// When it rings next.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_at: Option<Timestamp>,
    pub recurring: bool,
    /// The reminder made (none in a dry run).
    #[schema(value_type = Option<String>)]
    pub reminder_id: Option<ReminderId>,
}

/// One item left out, and why.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SkippedItem {
    pub item: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub reason: SkipReason,
    /// What exactly, for people (the rule part, the field).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// `POST /api/import`'s answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportReport {
    /// How many reminders were (or, in a dry run, would be) made.
    pub imported: usize,
    pub dry_run: bool,
    pub items: Vec<ImportedItem>,
    pub skipped: Vec<SkippedItem>,
}

/// An item read from a file, ready to be checked and made.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub item: String,
    pub input: ReminderInput,
    /// The exported list it was in (JSON imports).
    pub list: Option<ListId>,
}

/// What a file holds: candidates, and items already known to be skipped.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub candidates: Vec<Candidate>,
    pub skipped: Vec<SkippedItem>,
    /// Lists to make (JSON imports): the exported ones that are not the default list.
    pub lists: Vec<ExportedList>,
}

impl SkippedItem {
    pub fn new(item: impl Into<String>, title: Option<String>, reason: SkipReason, detail: impl Into<String>) -> SkippedItem {
        let detail = detail.into();
        SkippedItem { item: item.into(), title, reason, detail: (!detail.is_empty()).then_some(detail) }
    }
}

/// Reads Hibiki's own export: archived reminders are skipped as past.
pub fn read_export(doc: ExportDocument) -> Reading {
    let mut reading = Reading { lists: doc.lists.iter().filter(|l| !l.is_default).cloned().collect(), ..Reading::default() };
    for r in doc.reminders {
        if !r.is_active {
            reading.skipped.push(SkippedItem::new(r.id.to_string(), Some(r.title.clone()), SkipReason::Past, "archived"));
            continue;
        }
        reading.candidates.push(Candidate { item: r.id.to_string(), input: r.input(None), list: r.list_id });
    }
    reading
}
