//! Lists and who belongs to them. A list's name is sealed like a reminder's title; the
//! default list's is NULL until renamed and reads in its reader's language.

use jiff::Timestamp;
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

use super::Db;
use crate::domain::ids::{ListId, ReminderId, UserId};
use crate::domain::lists::{List, ListColour, ListPatch, ListRole, MAX_OWNED_LISTS, Placement, default_list_name};
use crate::domain::states::Language;
use crate::domain::time::to_millis;
use crate::infra::crypto::Keys;
use crate::{Error, Result};

/// A list with the reader's role and its counts; `$1` is the reader.
const LIST_SELECT: &str = "SELECT l.id, l.owner_id, l.name, l.colour, l.is_default, m.role,
        (SELECT COUNT(*) FROM list_members n WHERE n.list_id = l.id) AS members,
        (SELECT COUNT(*) FROM reminders r WHERE r.list_id = l.id AND r.is_active = 1) AS active_reminders
     FROM lists l JOIN list_members m ON m.list_id = l.id AND m.user_id = $1";

fn name_context(id: &ListId) -> String {
    format!("{id}/name")
}

fn list_from_row(keys: &Keys, row: &AnyRow, language: Language) -> Result<List> {
    let id: ListId = row.try_get("id")?;
    let name = match row.try_get::<Option<Vec<u8>>, _>("name")? {
        Some(sealed) => keys.open_string(&name_context(&id), &sealed)?,
        None => default_list_name(language).to_owned(),
    };
    let colour: String = row.try_get("colour")?;
    let role: String = row.try_get("role")?;
    Ok(List {
        name,
        colour: ListColour::parse(&colour).ok_or_else(|| Error::Corrupt(format!("list colour {colour:?}")))?,
        is_default: row.try_get::<i64, _>("is_default")? != 0,
        role: ListRole::parse(&role).ok_or_else(|| Error::Corrupt(format!("list role {role:?}")))?,
        members: row.try_get("members")?,
        active_reminders: row.try_get("active_reminders")?,
        owner_id: row.try_get("owner_id")?,
        id,
    })
}

/// A list's name as `language` reads it (the default list's is the word for "Reminders" until
/// renamed).
pub(super) async fn list_name<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    e: E,
    keys: &Keys,
    id: &ListId,
    language: Language,
) -> Result<String> {
    let sealed: Option<Vec<u8>> =
        sqlx::query_scalar("SELECT name FROM lists WHERE id = $1").bind(id).fetch_optional(e).await?.ok_or(Error::NotFound)?;
    match sealed {
        Some(sealed) => keys.open_string(&name_context(id), &sealed),
        None => Ok(default_list_name(language).to_owned()),
    }
}

/// The account's default list, made when it has none (an account made before lists had one
/// made by the migration; a new one gets it on first use).
pub(super) async fn ensure_default_list(conn: &mut sqlx::AnyConnection, user_id: &UserId, now: Timestamp) -> Result<ListId> {
    let select = "SELECT id FROM lists WHERE owner_id = $1 AND is_default = 1";
    if let Some(id) = sqlx::query_scalar::<_, ListId>(select).bind(user_id).fetch_optional(&mut *conn).await? {
        return Ok(id);
    }
    // The list and its owner's membership together: a concurrent request that finds the list
    // finds its owner in it.
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    let id = ListId::generate();
    let now_ms = to_millis(now);
    let made = sqlx::query(
        "INSERT INTO lists (id, owner_id, name, colour, is_default, created_at, updated_at) VALUES ($1, $2, NULL, $3, 1, $4, $4)
         ON CONFLICT (owner_id) WHERE is_default = 1 DO NOTHING",
    )
    .bind(id)
    .bind(user_id)
    .bind(ListColour::default().as_str())
    .bind(now_ms)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if made == 0 {
        // Another request made it first (and committed it with its member).
        tx.rollback().await?;
        return Ok(sqlx::query_scalar::<_, ListId>(select).bind(user_id).fetch_one(&mut *conn).await?);
    }
    add_member(&mut tx, &id, user_id, ListRole::Owner, now).await?;
    tx.commit().await?;
    Ok(id)
}

async fn add_member(conn: &mut sqlx::AnyConnection, list_id: &ListId, user_id: &UserId, role: ListRole, now: Timestamp) -> Result<()> {
    sqlx::query("INSERT INTO list_members (list_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
        .bind(list_id)
        .bind(user_id)
        .bind(role.as_str())
        .bind(to_millis(now))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Deletes a reminder's row with its fires, its delivery history and its trigger links, in the
/// caller's transaction; answers whether the reminder was there.
pub(super) async fn delete_reminder_rows(conn: &mut sqlx::AnyConnection, id: &ReminderId) -> Result<bool> {
    super::children::remove(conn, super::children::Key::Reminder(id)).await
}

/// Who may see and act on a reminder.
#[derive(Debug, Clone, Default)]
pub struct ReminderPeople {
    pub members: Vec<UserId>,
}

impl Db {
    /// Every list the user belongs to: the default list first, then by when each was made.
    pub async fn lists_of(&self, keys: &Keys, user_id: &UserId, language: Language, now: Timestamp) -> Result<Vec<List>> {
        let mut conn = self.pool.acquire().await?;
        ensure_default_list(&mut conn, user_id, now).await?;
        let sql = format!("{LIST_SELECT} ORDER BY l.is_default DESC, l.created_at, l.id");
        let rows = sqlx::query(AssertSqlSafe(sql)).bind(user_id).fetch_all(&mut *conn).await?;
        rows.iter().map(|row| list_from_row(keys, row, language)).collect()
    }

    /// One list the user belongs to; any other is `NotFound`, like a missing one.
    pub async fn list_of(&self, keys: &Keys, user_id: &UserId, id: &ListId, language: Language) -> Result<List> {
        let sql = format!("{LIST_SELECT} WHERE l.id = $2");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(user_id).bind(id).fetch_optional(&self.pool).await?.ok_or(Error::NotFound)?;
        list_from_row(keys, &row, language)
    }

    /// The list a reminder of `user_id` goes to: `list_id` when the user belongs to it, the
    /// user's default list when none is named. Answers the list and its owner.
    pub async fn list_for_reminder(&self, user_id: &UserId, list_id: Option<&ListId>, now: Timestamp) -> Result<Option<(ListId, UserId)>> {
        let mut conn = self.pool.acquire().await?;
        let id = match list_id {
            Some(id) => *id,
            None => ensure_default_list(&mut conn, user_id, now).await?,
        };
        let owner: Option<UserId> =
            sqlx::query_scalar("SELECT l.owner_id FROM lists l JOIN list_members m ON m.list_id = l.id AND m.user_id = $1 WHERE l.id = $2")
                .bind(user_id)
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?;
        Ok(owner.map(|owner| (id, owner)))
    }

    /// A reminder of the user's own default list, ringing for them.
    pub async fn default_placement(&self, user_id: &UserId, now: Timestamp) -> Result<Placement> {
        let mut conn = self.pool.acquire().await?;
        let list_id = ensure_default_list(&mut conn, user_id, now).await?;
        Ok(Placement { list_id, owner: *user_id, created_by: *user_id, assignees: Vec::new(), rotate: false })
    }

    /// The members of a list (its owner included), in the order they joined.
    /// The people of a reminder's list, in the order they joined (the owner first).
    pub async fn reminder_people(&self, reminder_id: &ReminderId) -> Result<ReminderPeople> {
        let members = sqlx::query_scalar(
            "SELECT m.user_id FROM list_members m JOIN reminders r ON r.list_id = m.list_id WHERE r.id = $1 ORDER BY m.joined_at, m.user_id",
        )
        .bind(reminder_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(ReminderPeople { members })
    }

    /// Whose turn a rotating reminder's next occurrence is: an index into its assignees.
    pub async fn rotation_next(&self, reminder_id: &ReminderId) -> Result<u64> {
        let next: Option<i64> =
            sqlx::query_scalar("SELECT rotation_next FROM reminders WHERE id = $1").bind(reminder_id).fetch_optional(&self.pool).await?;
        Ok(next.and_then(|n| u64::try_from(n).ok()).unwrap_or(0))
    }

    pub async fn member_ids(&self, list_id: &ListId) -> Result<Vec<UserId>> {
        Ok(sqlx::query_scalar("SELECT user_id FROM list_members WHERE list_id = $1 ORDER BY joined_at, user_id")
            .bind(list_id)
            .fetch_all(&self.pool)
            .await?)
    }

    /// A new list of the owner's; `ListLimit` past [`MAX_OWNED_LISTS`] besides the default.
    pub async fn create_list(
        &self,
        keys: &Keys,
        owner: &UserId,
        name: &str,
        colour: ListColour,
        language: Language,
        now: Timestamp,
    ) -> Result<List> {
        let id = ListId::generate();
        let now_ms = to_millis(now);
        let mut tx = self.pool.begin().await?;
        // The owner's row first: it serializes one account's creates, so the count holds (and
        // in SQLite a write first takes the write lock).
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(owner).execute(&mut *tx).await?;
        ensure_default_list(&mut tx, owner, now).await?;
        let owned: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM lists WHERE owner_id = $1 AND is_default = 0").bind(owner).fetch_one(&mut *tx).await?;
        if owned >= MAX_OWNED_LISTS as i64 {
            return Err(Error::ListLimit(MAX_OWNED_LISTS));
        }
        sqlx::query(
            "INSERT INTO lists (id, owner_id, name, colour, is_default, created_at, updated_at) VALUES ($1, $2, $3, $4, 0, $5, $5)",
        )
        .bind(id)
        .bind(owner)
        .bind(keys.seal_str(&name_context(&id), name))
        .bind(colour.as_str())
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        add_member(&mut tx, &id, owner, ListRole::Owner, now).await?;
        tx.commit().await?;
        self.list_of(keys, owner, &id, language).await
    }

    /// The owner's role on a list the user belongs to: `NotFound` for one they do not,
    /// `Forbidden` for a member.
    async fn owned_list(&self, conn: &mut sqlx::AnyConnection, user_id: &UserId, id: &ListId) -> Result<bool> {
        let row = sqlx::query(
            "SELECT m.role, l.is_default FROM list_members m JOIN lists l ON l.id = m.list_id WHERE m.list_id = $1 AND m.user_id = $2",
        )
        .bind(id)
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(Error::NotFound)?;
        if row.try_get::<String, _>("role")? != ListRole::Owner.as_str() {
            return Err(Error::Forbidden);
        }
        Ok(row.try_get::<i64, _>("is_default")? != 0)
    }

    /// Renames or recolours a list (its owner only; the patch's name already checked).
    pub async fn update_list(
        &self,
        keys: &Keys,
        user_id: &UserId,
        id: &ListId,
        patch: &ListPatch,
        language: Language,
        now: Timestamp,
    ) -> Result<List> {
        let mut conn = self.pool.acquire().await?;
        self.owned_list(&mut conn, user_id, id).await?;
        if let Some(name) = &patch.name {
            sqlx::query("UPDATE lists SET name = $2, updated_at = $3 WHERE id = $1")
                .bind(id)
                .bind(keys.seal_str(&name_context(id), name))
                .bind(to_millis(now))
                .execute(&mut *conn)
                .await?;
        }
        if let Some(colour) = patch.colour {
            sqlx::query("UPDATE lists SET colour = $2, updated_at = $3 WHERE id = $1")
                .bind(id)
                .bind(colour.as_str())
                .bind(to_millis(now))
                .execute(&mut *conn)
                .await?;
        }
        drop(conn);
        self.list_of(keys, user_id, id, language).await
    }

    /// Deletes a list with its reminders (its owner only; never the default list). Answers
    /// the reminders that went, for the schedulers.
    pub async fn delete_list(&self, user_id: &UserId, id: &ListId) -> Result<Vec<ReminderId>> {
        let mut tx = self.begin_write().await?;
        if self.owned_list(&mut tx, user_id, id).await? {
            return Err(Error::DefaultList);
        }
        let reminders: Vec<ReminderId> =
            sqlx::query_scalar("SELECT id FROM reminders WHERE list_id = $1").bind(id).fetch_all(&mut *tx).await?;
        super::children::remove(&mut tx, super::children::Key::List(id)).await?;
        tx.commit().await?;
        for reminder in &reminders {
            self.reminder_changed(reminder).await;
        }
        Ok(reminders)
    }
}
