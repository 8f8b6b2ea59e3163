//! Sharing a list: invitations by email and the people in a list. An invitation's token is
//! kept as a keyed hash; its mail's copy is sealed until the mail worker sends it.

use jiff::Timestamp;
use sqlx::Row;

use super::Db;
use super::lists::list_name;
use crate::domain::email::Email;
use crate::domain::ids::{InviteId, ListId, ReminderId, UserId};
use crate::domain::lists::{INVITE_VALID, INVITES_PER_DAY, Invite, InvitePeek, List, ListRole, MAX_LIST_PEOPLE, Member, without_member};
use crate::domain::states::Language;
use crate::domain::time::{from_millis, to_millis};
use crate::infra::crypto::Keys;
use crate::{Error, Result};

const TOKEN_PURPOSE: &str = "invite";

fn secret_context(id: &InviteId) -> String {
    format!("{id}/mail_secret")
}

/// What an invitation mail says, read when the mail worker sends it.
#[derive(Debug, Clone)]
pub struct InviteMail {
    pub to: Email,
    pub token: String,
    pub list_name: String,
    pub inviter: Email,
    /// The inviter's language: the mail is theirs.
    pub language: Language,
}

impl Db {
    /// The role of `user_id` in a list, or `NotFound` when they are not in it.
    async fn role_in(&self, conn: &mut sqlx::AnyConnection, list_id: &ListId, user_id: &UserId) -> Result<ListRole> {
        let role: Option<String> = sqlx::query_scalar("SELECT role FROM list_members WHERE list_id = $1 AND user_id = $2")
            .bind(list_id)
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?;
        role.as_deref().and_then(ListRole::parse).ok_or(Error::NotFound)
    }

    /// The owner's: `NotFound` for a stranger, `Forbidden` for a member.
    async fn owner_only(&self, conn: &mut sqlx::AnyConnection, list_id: &ListId, user_id: &UserId) -> Result<()> {
        match self.role_in(conn, list_id, user_id).await? {
            ListRole::Owner => Ok(()),
            ListRole::Member => Err(Error::Forbidden),
        }
    }

    /// Invites `email` to the owner's list; answers the invitation and its token (for the
    /// mail, which the caller queues). An earlier pending invitation of the same address is
    /// replaced. `AlreadyMember`, `MemberLimit` (people and pending invitations), and
    /// `RateLimited` past [`INVITES_PER_DAY`] of the owner's.
    pub async fn create_invite(
        &self,
        keys: &Keys,
        owner: &UserId,
        list_id: &ListId,
        email: &Email,
        now: Timestamp,
    ) -> Result<(Invite, String)> {
        let now_ms = to_millis(now);
        let mut tx = self.pool.begin().await?;
        // The owner's row first: it serializes one owner's invitations, so the counts hold.
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(owner).execute(&mut *tx).await?;
        self.owner_only(&mut tx, list_id, owner).await?;
        let member: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM list_members m JOIN users u ON u.id = m.user_id WHERE m.list_id = $1 AND u.email = $2",
        )
        .bind(list_id)
        .bind(email)
        .fetch_one(&mut *tx)
        .await?;
        if member > 0 {
            return Err(Error::AlreadyMember);
        }
        let day_ago = to_millis(now - jiff::SignedDuration::from_hours(24));
        let sent: Vec<i64> =
            sqlx::query_scalar("SELECT created_at FROM list_invites WHERE inviter_id = $1 AND created_at > $2 ORDER BY created_at")
                .bind(owner)
                .bind(day_ago)
                .fetch_all(&mut *tx)
                .await?;
        if sent.len() >= INVITES_PER_DAY {
            let retry_after = ((sent[0] - day_ago) / 1000).max(1);
            return Err(Error::RateLimited(retry_after));
        }
        sqlx::query("DELETE FROM list_invites WHERE list_id = $1 AND email = $2 AND accepted_at IS NULL")
            .bind(list_id)
            .bind(email)
            .execute(&mut *tx)
            .await?;
        let people: i64 = sqlx::query_scalar(
            "SELECT (SELECT COUNT(*) FROM list_members WHERE list_id = $1)
                  + (SELECT COUNT(*) FROM list_invites WHERE list_id = $1 AND accepted_at IS NULL AND expires_at > $2)",
        )
        .bind(list_id)
        .bind(now_ms)
        .fetch_one(&mut *tx)
        .await?;
        if people >= MAX_LIST_PEOPLE as i64 {
            return Err(Error::MemberLimit(MAX_LIST_PEOPLE));
        }
        let id = InviteId::generate();
        let token = keys.token();
        let expires_at = now + INVITE_VALID;
        sqlx::query(
            "INSERT INTO list_invites (id, list_id, inviter_id, email, token_hash, mail_secret, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(list_id)
        .bind(owner)
        .bind(email)
        .bind(keys.otp_hash(TOKEN_PURPOSE, "", &token))
        .bind(keys.seal_str(&secret_context(&id), &token))
        .bind(now_ms)
        .bind(to_millis(expires_at))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok((Invite { id, email: email.as_str().to_owned(), expires_at }, token))
    }

    /// What the invitation mail says, while it is still to be sent (`None` once sent,
    /// cancelled, accepted or gone).
    pub async fn invite_mail(&self, keys: &Keys, id: &InviteId) -> Result<Option<InviteMail>> {
        let row = sqlx::query(
            "SELECT i.email, i.mail_secret, i.list_id, u.email AS inviter, u.language
             FROM list_invites i JOIN users u ON u.id = i.inviter_id
             WHERE i.id = $1 AND i.accepted_at IS NULL AND i.mail_secret IS NOT NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let language = row.try_get::<String, _>("language").ok().as_deref().and_then(Language::parse).unwrap_or(Language::En);
        let list_id: ListId = row.try_get("list_id")?;
        let sealed: Vec<u8> = row.try_get("mail_secret")?;
        Ok(Some(InviteMail {
            to: row.try_get("email")?,
            token: keys.open_string(&secret_context(id), &sealed)?,
            list_name: list_name(&self.pool, keys, &list_id, language).await?,
            inviter: row.try_get("inviter")?,
            language,
        }))
    }

    /// The invitation mail went (or was refused for good): its copy of the token goes.
    pub async fn invite_mail_sent(&self, id: &InviteId) -> Result<()> {
        sqlx::query("UPDATE list_invites SET mail_secret = NULL WHERE id = $1").bind(id).execute(&self.pool).await?;
        Ok(())
    }

    /// The pending invitation a token names, with its list and inviter; `InviteInvalid` for
    /// one that is not, or was used or expired.
    async fn pending_invite(
        &self,
        conn: &mut sqlx::AnyConnection,
        keys: &Keys,
        token: &str,
        now: Timestamp,
    ) -> Result<(InviteId, ListId, Email, Email, Language)> {
        let row = sqlx::query(
            "SELECT i.id, i.list_id, i.email, u.email AS inviter, u.language
             FROM list_invites i JOIN users u ON u.id = i.inviter_id
             WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > $2",
        )
        .bind(keys.otp_hash(TOKEN_PURPOSE, "", token.trim()))
        .bind(to_millis(now))
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(Error::InviteInvalid)?;
        let language = row.try_get::<String, _>("language").ok().as_deref().and_then(Language::parse).unwrap_or(Language::En);
        Ok((row.try_get("id")?, row.try_get("list_id")?, row.try_get("email")?, row.try_get("inviter")?, language))
    }

    /// What an invitation link shows, spending nothing.
    pub async fn peek_invite(&self, keys: &Keys, token: &str, now: Timestamp) -> Result<InvitePeek> {
        let mut conn = self.pool.acquire().await?;
        let (_, list_id, email, inviter, language) = self.pending_invite(&mut conn, keys, token, now).await?;
        Ok(InvitePeek {
            list_name: list_name(&mut *conn, keys, &list_id, language).await?,
            inviter: inviter.masked(),
            email: email.masked(),
        })
    }

    /// Accepts an invitation as `user`: they join the list as a member and the invitation is
    /// spent. `InviteWrongAccount` when they are signed in as another address.
    pub async fn accept_invite(
        &self,
        keys: &Keys,
        user_id: &UserId,
        email: &Email,
        token: &str,
        language: Language,
        now: Timestamp,
    ) -> Result<List> {
        let mut tx = self.begin_write().await?;
        let (id, list_id, invited, _, _) = self.pending_invite(&mut tx, keys, token, now).await?;
        if invited != *email {
            return Err(Error::InviteWrongAccount);
        }
        let spent = sqlx::query("UPDATE list_invites SET accepted_at = $2, mail_secret = NULL WHERE id = $1 AND accepted_at IS NULL")
            .bind(id)
            .bind(to_millis(now))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if spent == 0 {
            return Err(Error::InviteInvalid);
        }
        sqlx::query("INSERT INTO list_members (list_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
            .bind(list_id)
            .bind(user_id)
            .bind(ListRole::Member.as_str())
            .bind(to_millis(now))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        self.list_of(keys, user_id, &list_id, language).await
    }

    /// The owner's pending invitations of a list, newest first.
    pub async fn pending_invites(&self, owner: &UserId, list_id: &ListId, now: Timestamp) -> Result<Vec<Invite>> {
        let mut conn = self.pool.acquire().await?;
        self.owner_only(&mut conn, list_id, owner).await?;
        let rows = sqlx::query(
            "SELECT id, email, expires_at FROM list_invites WHERE list_id = $1 AND accepted_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id",
        )
        .bind(list_id)
        .bind(to_millis(now))
        .fetch_all(&mut *conn)
        .await?;
        rows.iter()
            .map(|r| Ok(Invite { id: r.try_get("id")?, email: r.try_get("email")?, expires_at: from_millis(r.try_get("expires_at")?) }))
            .collect()
    }

    /// The owner cancels a pending invitation: its link stops working.
    pub async fn cancel_invite(&self, owner: &UserId, list_id: &ListId, id: &InviteId) -> Result<()> {
        let mut conn = self.pool.acquire().await?;
        self.owner_only(&mut conn, list_id, owner).await?;
        let gone = sqlx::query("DELETE FROM list_invites WHERE id = $1 AND list_id = $2 AND accepted_at IS NULL")
            .bind(id)
            .bind(list_id)
            .execute(&mut *conn)
            .await?
            .rows_affected();
        if gone == 0 { Err(Error::NotFound) } else { Ok(()) }
    }

    /// The people in a list the user belongs to, the owner first.
    pub async fn members(&self, user_id: &UserId, list_id: &ListId) -> Result<Vec<Member>> {
        let mut conn = self.pool.acquire().await?;
        self.role_in(&mut conn, list_id, user_id).await?;
        let rows = sqlx::query(
            "SELECT m.user_id, u.email, m.role, m.joined_at FROM list_members m JOIN users u ON u.id = m.user_id
             WHERE m.list_id = $1 ORDER BY CASE WHEN m.role = 'owner' THEN 0 ELSE 1 END, m.joined_at, m.user_id",
        )
        .bind(list_id)
        .fetch_all(&mut *conn)
        .await?;
        rows.iter()
            .map(|r| {
                let role: String = r.try_get("role")?;
                Ok(Member {
                    user_id: r.try_get("user_id")?,
                    email: r.try_get("email")?,
                    role: ListRole::parse(&role).ok_or_else(|| Error::Corrupt(format!("list role {role:?}")))?,
                    joined_at: from_millis(r.try_get("joined_at")?),
                })
            })
            .collect()
    }

    /// `actor` removes `member` from a list: the owner removes a member, or a member leaves.
    /// The owner cannot leave their own list (they delete it). The member is no longer an
    /// assignee of its reminders. Answers the reminders whose assignees changed.
    pub async fn remove_member(&self, actor: &UserId, list_id: &ListId, member: &UserId) -> Result<Vec<ReminderId>> {
        let mut tx = self.begin_write().await?;
        let actor_role = self.role_in(&mut tx, list_id, actor).await?;
        // A stranger to the list is as missing to the owner as to anyone.
        let member_role = self.role_in(&mut tx, list_id, member).await?;
        match (actor_role, member_role, actor == member) {
            (ListRole::Owner, ListRole::Member, false) | (ListRole::Member, ListRole::Member, true) => {}
            _ => return Err(Error::Forbidden),
        }
        sqlx::query("DELETE FROM list_members WHERE list_id = $1 AND user_id = $2").bind(list_id).bind(member).execute(&mut *tx).await?;
        let rows = sqlx::query("SELECT id, assignees, rotate FROM reminders WHERE list_id = $1 AND assignees <> '[]'")
            .bind(list_id)
            .fetch_all(&mut *tx)
            .await?;
        let mut changed = Vec::new();
        for row in rows {
            let id: ReminderId = row.try_get("id")?;
            let assignees: Vec<UserId> =
                serde_json::from_str(&row.try_get::<String, _>("assignees")?).map_err(|_| Error::Corrupt("reminder assignees".into()))?;
            if !assignees.contains(member) {
                continue;
            }
            let (kept, rotate) = without_member(&assignees, row.try_get::<i64, _>("rotate")? != 0, member);
            sqlx::query("UPDATE reminders SET assignees = $2, rotate = $3 WHERE id = $1")
                .bind(id)
                .bind(serde_json::to_string(&kept)?)
                .bind(super::flag(rotate))
                .execute(&mut *tx)
                .await?;
            changed.push(id);
        }
        tx.commit().await?;
        for id in &changed {
            self.reminder_changed(id).await;
        }
        Ok(changed)
    }
}
