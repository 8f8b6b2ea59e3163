//! What belongs to what, declared once: each parent's child tables and the column naming the
//! parent. Deleting a reminder, a list, a channel or an account, the history retention and
//! the orphan sweep all walk these lists, so a new table is one line here; a test reads the
//! migrations and fails on a table with a `log_id`, `reminder_id`, `list_id`, `user_id`,
//! `channel_id` or `owner_id` column that is on no list.
//!
//! (SQLite keeps no foreign keys on the newer tables, and PostgreSQL's cascades are not relied
//! on: the rows go because these lists say so, on both backends.)

use futures::future::BoxFuture;
use sqlx::{AnyConnection, AssertSqlSafe};

use crate::Result;
use crate::domain::ids::{ChannelId, ListId, LogId, ReminderId, UserId};

/// Something rows belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Parent {
    /// A delivery log entry.
    Entry,
    Reminder,
    List,
    /// A linked channel (LINE, Telegram, ntfy, a webhook).
    Channel,
    Person,
}

/// How a child's rows go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rows {
    /// Deleted as they are.
    Leaf,
    /// Each row is itself a parent: its own children go first.
    Parent(Parent),
    /// Fires: only `storage/fires.rs` writes them (it keeps the scheduler's rule).
    Fires,
}

/// A table whose rows belong to a parent through `column`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Child {
    pub table: &'static str,
    pub column: &'static str,
    pub rows: Rows,
}

const fn leaf(table: &'static str, column: &'static str) -> Child {
    Child { table, column, rows: Rows::Leaf }
}

const fn parent(table: &'static str, column: &'static str, of: Parent) -> Child {
    Child { table, column, rows: Rows::Parent(of) }
}

const ENTRY: &[Child] =
    &[leaf("deliveries", "log_id"), leaf("fallbacks", "log_id"), leaf("holds", "log_id"), leaf("channel_sends", "log_id")];

const REMINDER: &[Child] = &[
    Child { table: "fires", column: "reminder_id", rows: Rows::Fires },
    leaf("triggers", "reminder_id"),
    parent("delivery_logs", "reminder_id", Parent::Entry),
];

const LIST: &[Child] =
    &[parent("reminders", "list_id", Parent::Reminder), leaf("list_members", "list_id"), leaf("list_invites", "list_id")];

const CHANNEL: &[Child] = &[leaf("channel_sends", "channel_id")];

/// A person's rows by their id (their rows by address, codes and mail, go in `delete_user`).
/// Their lists go with everything in them; on other people's lists, their membership, their
/// trigger links and what named them in deliveries, holds and fallbacks.
const PERSON: &[Child] = &[
    parent("lists", "owner_id", Parent::List),
    parent("reminders", "user_id", Parent::Reminder),
    parent("delivery_logs", "user_id", Parent::Entry),
    leaf("list_members", "user_id"),
    leaf("triggers", "user_id"),
    leaf("deliveries", "user_id"),
    leaf("holds", "user_id"),
    leaf("fallbacks", "user_id"),
    parent("channels", "user_id", Parent::Channel),
    leaf("push_subscriptions", "user_id"),
    leaf("sessions", "user_id"),
    leaf("api_tokens", "user_id"),
];

impl Parent {
    pub(super) const ALL: [Parent; 5] = [Parent::Entry, Parent::Reminder, Parent::List, Parent::Channel, Parent::Person];

    /// The parent's own table and key.
    pub(super) fn table(self) -> (&'static str, &'static str) {
        match self {
            Parent::Entry => ("delivery_logs", "id"),
            Parent::Reminder => ("reminders", "id"),
            Parent::List => ("lists", "id"),
            Parent::Channel => ("channels", "id"),
            Parent::Person => ("users", "id"),
        }
    }

    /// What belongs to it, in the order it is deleted.
    pub(super) fn children(self) -> &'static [Child] {
        match self {
            Parent::Entry => ENTRY,
            Parent::Reminder => REMINDER,
            Parent::List => LIST,
            Parent::Channel => CHANNEL,
            Parent::Person => PERSON,
        }
    }
}

/// The one value a cascade's statements bind (as `$1`).
#[derive(Debug, Clone, Copy)]
pub(super) enum Key<'a> {
    Entry(&'a LogId),
    Reminder(&'a ReminderId),
    List(&'a ListId),
    Channel(&'a ChannelId),
    Person(&'a UserId),
}

impl Key<'_> {
    fn parent(self) -> Parent {
        match self {
            Key::Entry(_) => Parent::Entry,
            Key::Reminder(_) => Parent::Reminder,
            Key::List(_) => Parent::List,
            Key::Channel(_) => Parent::Channel,
            Key::Person(_) => Parent::Person,
        }
    }
}

/// Runs one statement that binds the key as `$1`.
pub(super) async fn execute(conn: &mut AnyConnection, sql: String, key: Key<'_>) -> Result<u64> {
    let q = sqlx::query(AssertSqlSafe(sql));
    let q = match key {
        Key::Entry(id) => q.bind(id),
        Key::Reminder(id) => q.bind(id),
        Key::List(id) => q.bind(id),
        Key::Channel(id) => q.bind(id),
        Key::Person(id) => q.bind(id),
    };
    Ok(q.execute(conn).await?.rows_affected())
}

/// Deletes one parent row and everything that belongs to it, children first, in the caller's
/// transaction. Answers whether the parent row was there.
pub(super) async fn remove(conn: &mut AnyConnection, key: Key<'_>) -> Result<bool> {
    let parent = key.parent();
    remove_children(conn, parent, "$1".to_owned(), key).await?;
    let (table, id) = parent.table();
    Ok(execute(conn, format!("DELETE FROM {table} WHERE {id} = $1"), key).await? > 0)
}

/// Deletes everything that belongs to one parent, leaving the parent's row (an account's row
/// goes last, after what its address names).
pub(super) async fn remove_children_of(conn: &mut AnyConnection, key: Key<'_>) -> Result<()> {
    remove_children(conn, key.parent(), "$1".to_owned(), key).await
}

/// Deletes what belongs to the parents whose keys `ids` (SQL binding the key as `$1`)
/// selects, depth first.
fn remove_children<'a>(conn: &'a mut AnyConnection, parent: Parent, ids: String, key: Key<'a>) -> BoxFuture<'a, Result<()>> {
    Box::pin(async move {
        for child in parent.children() {
            let Child { table, column, rows } = *child;
            match rows {
                Rows::Leaf => {}
                Rows::Fires => super::fires::forget(conn, super::fires::Forget::Of { ids: &ids, key }).await?,
                Rows::Parent(of) => {
                    let (_, child_key) = of.table();
                    let theirs = format!("SELECT {child_key} FROM {table} WHERE {column} IN ({ids})");
                    remove_children(conn, of, theirs, key).await?;
                }
            }
            if rows != Rows::Fires {
                execute(conn, format!("DELETE FROM {table} WHERE {column} IN ({ids})"), key).await?;
            }
        }
        Ok(())
    })
}

/// Deletes rows whose parent is gone, from every leaf child table (a crash between
/// statements on SQLite, or rows from before a cascade knew them). Answers how many went.
pub(super) async fn sweep_orphans(conn: &mut AnyConnection) -> Result<u64> {
    let mut removed = 0;
    for parent in Parent::ALL {
        let (parent_table, parent_key) = parent.table();
        for child in parent.children().iter().filter(|c| c.rows == Rows::Leaf) {
            // An empty parent column names no parent (a device send from before sends named
            // whose device it was): not an orphan.
            let sql = format!(
                "DELETE FROM {t} WHERE {t}.{c} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM {parent_table} p WHERE p.{parent_key} = {t}.{c})",
                t = child.table,
                c = child.column
            );
            removed += sqlx::query(AssertSqlSafe(sql)).execute(&mut *conn).await?.rows_affected();
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Columns that name a parent.
    const PARENT_COLUMNS: [&str; 6] = ["log_id", "reminder_id", "list_id", "user_id", "channel_id", "owner_id"];

    /// (table, column) for every parent column the migrations of one backend create.
    fn parent_columns_in_migrations(backend: &str) -> BTreeSet<(String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend);
        let mut found = BTreeSet::new();
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        assert!(files.len() >= 15, "the migrations of {backend}: {files:?}");
        for file in files {
            let mut table: Option<String> = None;
            for line in std::fs::read_to_string(&file).unwrap().lines() {
                let words: Vec<&str> = line.split_whitespace().collect();
                let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
                match upper.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
                    ["CREATE", "TABLE", ..] => {
                        let name = if upper.get(2).map(String::as_str) == Some("IF") { words[5] } else { words[2] };
                        table = Some(name.trim_end_matches('(').to_owned());
                    }
                    ["ALTER", "TABLE", _, "ADD", "COLUMN", ..] => {
                        if PARENT_COLUMNS.contains(&words[5]) {
                            found.insert((words[2].to_owned(), words[5].to_owned()));
                        }
                    }
                    [first, ..] if first.starts_with(')') => table = None,
                    [_, ..] => {
                        if let Some(t) = &table
                            && PARENT_COLUMNS.contains(&words[0])
                        {
                            found.insert((t.clone(), words[0].to_owned()));
                        }
                    }
                    [] => {}
                }
            }
        }
        found
    }

    fn declared() -> BTreeSet<(String, String)> {
        Parent::ALL.iter().flat_map(|p| p.children()).map(|c| (c.table.to_owned(), c.column.to_owned())).collect()
    }

    #[test]
    fn every_table_that_names_a_parent_is_on_a_list() {
        for backend in ["sqlite", "postgres"] {
            let found = parent_columns_in_migrations(backend);
            assert!(found.contains(&("channel_sends".to_owned(), "log_id".to_owned())), "the reader finds columns: {found:?}");
            let declared = declared();
            let missing: Vec<_> = found.difference(&declared).collect();
            assert!(missing.is_empty(), "{backend}: tables naming a parent on no list in storage/children.rs: {missing:?}");
            let stale: Vec<_> = declared.iter().filter(|d| !found.contains(*d)).collect();
            assert!(stale.is_empty(), "{backend}: listed but in no migration: {stale:?}");
        }
    }

    #[test]
    fn a_child_that_is_a_parent_is_listed_under_its_own_table() {
        for parent in Parent::ALL {
            for child in parent.children() {
                if let Rows::Parent(of) = child.rows {
                    assert_eq!(child.table, of.table().0, "{child:?}");
                }
            }
        }
    }
}
