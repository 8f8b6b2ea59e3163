//! Export and import: a person's data out as one JSON document, and reminders in from that
//! document or an iCalendar file, with a dry run that writes nothing.

use std::collections::BTreeMap;

use jiff::Timestamp;
use jiff::civil::Time;

use crate::domain::ical_import::{self, Context};
use crate::domain::ids::{ListId, UserId};
use crate::domain::lists::check_list_name;
use crate::domain::reminder::{MAX_ACTIVE_REMINDERS, StatusFilter};
use crate::domain::transfer::{
    EXPORT_VERSION, ExportDocument, ExportedList, ExportedReminder, ImportReport, ImportedItem, Reading, SkipReason, SkippedItem,
    read_export,
};
use crate::error::{Error, FieldCode, FieldErrors};
use crate::infra::storage::Store;
use crate::usecases::reminders::{self, Anchor};
use crate::{Result, domain::lists::ListRole};

/// Everything of the person's: settings, the lists they own, and every reminder in those
/// lists, archived too. No secrets.
pub async fn export(store: &Store, user_id: &UserId, now: Timestamp) -> Result<ExportDocument> {
    let settings = store.db.settings(user_id).await?;
    let lists = store.lists_of(user_id, settings.language, now).await?;
    let owned: Vec<ExportedList> = lists
        .iter()
        .filter(|l| l.role == ListRole::Owner)
        .map(|l| ExportedList { id: l.id, name: l.name.clone(), colour: l.colour, is_default: l.is_default })
        .collect();
    let reminders = store.list_reminders(user_id, StatusFilter::All, now).await?;
    let reminders = reminders.iter().filter(|r| owned.iter().any(|l| l.id == r.list_id)).map(ExportedReminder::of).collect();
    Ok(ExportDocument { version: EXPORT_VERSION, exported_at: now, settings: Some(settings), lists: owned, reminders })
}

/// What was sent to import.
pub enum ImportFile {
    /// Hibiki's export.
    Export(Box<ExportDocument>),
    /// An iCalendar file.
    Calendar(String),
}

/// Reads the file for `user_id`; an iCalendar file that does not parse is a field error.
async fn reading(store: &Store, user_id: &UserId, file: ImportFile, now: Timestamp) -> Result<Reading> {
    match file {
        ImportFile::Export(doc) => Ok(read_export(*doc)),
        ImportFile::Calendar(text) => {
            let Some(components) = ical_import::parse(&text) else {
                let mut errors = FieldErrors::default();
                errors.add("body", FieldCode::InvalidFormat.because("not an iCalendar file (BEGIN:VCALENDAR … END:VCALENDAR)"));
                return Err(errors.into_result().expect_err("one error"));
            };
            let settings = store.db.settings(user_id).await?;
            let all_day_at = Time::strptime("%H:%M", &settings.morning_time).unwrap_or(Time::constant(8, 0, 0, 0));
            Ok(ical_import::read(&components, &Context { zone: settings.timezone, all_day_at, now }))
        }
    }
}

/// An item left out because the person's active reminders are at the limit.
fn over_the_limit(item: String, title: String) -> SkippedItem {
    SkippedItem::new(item, Some(title), SkipReason::Limit, format!("at most {MAX_ACTIVE_REMINDERS} active reminders"))
}

/// Brings the file's reminders in, in the file's order, up to the person's room under the
/// active limit; reports each item. A dry run checks everything the same way and writes
/// nothing.
pub async fn import(store: &Store, user_id: &UserId, file: ImportFile, dry_run: bool, now: Timestamp) -> Result<ImportReport> {
    let Reading { candidates, mut skipped, lists } = reading(store, user_id, file, now).await?;
    let mut room = (MAX_ACTIVE_REMINDERS as i64 - store.db.active_reminder_count(user_id).await?).max(0);
    // The exported lists, made again (by name, once each; over the list limit their reminders
    // go to the default list). In a dry run nothing is made and every reminder is checked in
    // the default list.
    let mut list_ids: BTreeMap<ListId, ListId> = BTreeMap::new();
    if !dry_run {
        let language = store.db.settings(user_id).await?.language;
        let existing = store.lists_of(user_id, language, now).await?;
        for list in &lists {
            if !candidates.iter().any(|c| c.list == Some(list.id)) {
                continue;
            }
            let mut errors = FieldErrors::default();
            let name = check_list_name(&list.name, &mut errors);
            if !errors.is_empty() {
                continue;
            }
            let found = existing.iter().find(|l| l.role == ListRole::Owner && l.name == name).map(|l| l.id);
            let id = match found {
                Some(id) => Some(id),
                None => match store.create_list(user_id, &name, list.colour, language, now).await {
                    Ok(made) => Some(made.id),
                    Err(Error::ListLimit(_)) => None,
                    Err(e) => return Err(e),
                },
            };
            if let Some(id) = id {
                list_ids.insert(list.id, id);
            }
        }
    }
    let mut items = Vec::new();
    for mut candidate in candidates {
        let title = candidate.input.title.clone();
        // Past the room, nothing more is checked: a file of thousands costs no more than the
        // hundred it could bring.
        if room == 0 {
            skipped.push(over_the_limit(candidate.item, title));
            continue;
        }
        candidate.input.list_id = candidate.list.and_then(|l| list_ids.get(&l).copied());
        let checked = match reminders::check_new(store, user_id, candidate.input, Anchor::SeriesMayHaveBegun, now).await {
            Ok(checked) => checked,
            Err(Error::Validation(fields)) => {
                let detail = fields.iter().map(|(f, p)| format!("{f}: {}", p.message)).collect::<Vec<_>>().join("; ");
                let reason = if fields.get("send_at").is_some_and(|p| p.code == FieldCode::NotInFuture) {
                    SkipReason::Past
                } else {
                    SkipReason::Invalid
                };
                skipped.push(SkippedItem::new(candidate.item, Some(title), reason, detail));
                continue;
            }
            Err(e) => return Err(e),
        };
        let next_at = checked.timing.schedule().next_after(now);
        let recurring = !checked.timing.recurrence.is_one_time();
        let reminder_id = if dry_run {
            None
        } else {
            match reminders::make(store, &checked, now).await {
                Ok(made) => Some(made.id),
                Err(Error::ReminderLimit(_)) => {
                    room = 0;
                    skipped.push(over_the_limit(candidate.item, title));
                    continue;
                }
                Err(e) => return Err(e),
            }
        };
        room -= 1;
        items.push(ImportedItem { item: candidate.item, title: checked.contents.title.clone(), next_at, recurring, reminder_id });
    }
    Ok(ImportReport { imported: items.len(), dry_run, items, skipped })
}
