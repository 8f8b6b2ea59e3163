//! What is kept sealed, read and written through the [`Store`], which holds the keys: callers
//! ask for a person's reminders and lists without handling keys. (The `Db` methods these wrap
//! take the keys for the storage code that already has both.)

use jiff::Timestamp;

use super::{ReminderQuery, Store};
use crate::Result;
use crate::domain::email::Email;
use crate::domain::ids::{ListId, ReminderId, UserId};
use crate::domain::lists::{InvitePeek, List, ListColour, ListPatch};
use crate::domain::reminder::{Reminder, StatusFilter};
use crate::domain::states::Language;

impl Store {
    /// One of the person's reminders (their own, or on a list they belong to).
    pub async fn get_reminder(&self, user: &UserId, id: &ReminderId, now: Timestamp) -> Result<Reminder> {
        self.db.get_reminder(&self.keys, user, id, now).await
    }

    /// Every reminder the person sees, by status.
    pub async fn list_reminders(&self, user: &UserId, filter: StatusFilter, now: Timestamp) -> Result<Vec<Reminder>> {
        self.db.list_reminders(&self.keys, user, filter, now).await
    }

    /// A page of the person's reminders, and how many there are in all.
    pub async fn list_reminders_page(
        &self,
        user: &UserId,
        query: &ReminderQuery,
        limit: i64,
        offset: i64,
        now: Timestamp,
    ) -> Result<(Vec<Reminder>, i64)> {
        self.db.list_reminders_page(&self.keys, user, query, limit, offset, now).await
    }

    /// Every list the person belongs to.
    pub async fn lists_of(&self, user: &UserId, language: Language, now: Timestamp) -> Result<Vec<List>> {
        self.db.lists_of(&self.keys, user, language, now).await
    }

    /// One list the person belongs to.
    pub async fn list_of(&self, user: &UserId, id: &ListId, language: Language) -> Result<List> {
        self.db.list_of(&self.keys, user, id, language).await
    }

    /// A new list of the person's own.
    pub async fn create_list(&self, owner: &UserId, name: &str, colour: ListColour, language: Language, now: Timestamp) -> Result<List> {
        self.db.create_list(&self.keys, owner, name, colour, language, now).await
    }

    /// The owner renames or recolours a list.
    pub async fn update_list(&self, owner: &UserId, id: &ListId, patch: &ListPatch, language: Language, now: Timestamp) -> Result<List> {
        self.db.update_list(&self.keys, owner, id, patch, language, now).await
    }

    /// What an invitation's link shows before it is accepted.
    pub async fn peek_invite(&self, token: &str, now: Timestamp) -> Result<InvitePeek> {
        self.db.peek_invite(&self.keys, token, now).await
    }

    /// The invited person accepts: they join the list.
    pub async fn accept_invite(&self, user: &UserId, email: &Email, token: &str, language: Language, now: Timestamp) -> Result<List> {
        self.db.accept_invite(&self.keys, user, email, token, language, now).await
    }
}
