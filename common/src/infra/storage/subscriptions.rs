//! Push subscriptions: one row per browser/device endpoint, with what makes it readable.

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use sqlx::Row;
use utoipa::ToSchema;

use super::Db;
use crate::Result;
use crate::domain::ids::{SubscriptionId, UserId};
use crate::domain::states::DeviceDeliveryStatus;
use crate::domain::time::{from_millis, to_millis};

/// Devices one account may have: each is a push per ring, so the count bounds what one
/// account can make the workers send.
pub const MAX_DEVICES: i64 = 20;

/// A device as `GET /api/notifications/subscriptions` answers it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Subscription {
    #[schema(value_type = String)]
    pub id: SubscriptionId,
    /// "iPhone · Safari", "Windows · Chrome"; empty when the device said nothing readable.
    pub label: String,
    /// The operating system family ("iPhone", "Android", "Windows", ...), or empty.
    pub platform: String,
    /// The push endpoint: the app finds its own device by it.
    pub endpoint: String,
    #[schema(value_type = Object)]
    pub device_info: serde_json::Value,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    /// When a notification was last shown on it (its service worker acknowledged one).
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_shown_at: Option<Timestamp>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_success_at: Option<Timestamp>,
    pub status: DeviceStatus,
}

/// `failing` when the last push to the device failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeviceStatus {
    Active,
    Failing,
}

/// What the push worker needs to encrypt for and reach a device.
#[derive(Debug, Clone)]
pub struct SubscriptionKeys {
    pub id: SubscriptionId,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

impl crate::domain::routing::Device for SubscriptionKeys {
    fn device_id(&self) -> SubscriptionId {
        self.id
    }
}

impl Db {
    /// Stores a subscription; re-subscribing the same endpoint updates it. An endpoint stored
    /// for another account moves to this one only with the same keys (the same browser signed
    /// in to another account); other keys are someone taking the device over:
    /// `EndpointInUse`, and the first account keeps it.
    /// Re-subscribing a device the account already has always works; a new one past
    /// [`MAX_DEVICES`] is `DeviceLimit`.
    pub async fn upsert_subscription(
        &self,
        user_id: &UserId,
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        device_info: &serde_json::Value,
        now: Timestamp,
    ) -> Result<String> {
        let id = SubscriptionId::generate();
        let now_ms = to_millis(now);
        let already_mine: Option<i64> = sqlx::query_scalar("SELECT 1 FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2")
            .bind(endpoint)
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        if already_mine.is_none() {
            let devices: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1")
                .bind(user_id)
                .fetch_one(&self.pool)
                .await?;
            if devices >= MAX_DEVICES {
                return Err(crate::Error::DeviceLimit(MAX_DEVICES));
            }
        }
        let id: Option<String> = sqlx::query_scalar(
            "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, device_info, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
             ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
                 device_info = excluded.device_info, updated_at = excluded.updated_at
             WHERE push_subscriptions.user_id = excluded.user_id
                OR (push_subscriptions.p256dh = excluded.p256dh AND push_subscriptions.auth = excluded.auth)
             RETURNING id",
        )
        .bind(id)
        .bind(user_id)
        .bind(endpoint)
        .bind(p256dh)
        .bind(auth)
        .bind(device_info.to_string())
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        id.ok_or(crate::Error::EndpointInUse)
    }

    pub async fn delete_subscription_of_user(&self, user_id: &UserId, endpoint: &str) -> Result<bool> {
        if endpoint.contains('\0') {
            return Ok(false);
        }
        Ok(sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2")
            .bind(user_id)
            .bind(endpoint)
            .execute(&self.pool)
            .await?
            .rows_affected()
            > 0)
    }

    /// A push service said the subscription is gone (404/410).
    pub async fn delete_subscription(&self, id: &SubscriptionId) -> Result<()> {
        sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(id).execute(&self.pool).await?;
        Ok(())
    }

    /// Removes one of the user's devices by id (`NotFound` for anyone else's).
    pub async fn delete_subscription_by_id(&self, user_id: &UserId, id: &SubscriptionId) -> Result<()> {
        let removed = sqlx::query("DELETE FROM push_subscriptions WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if removed == 0 {
            return Err(crate::Error::NotFound);
        }
        Ok(())
    }

    pub async fn subscriptions(&self, user_id: &UserId) -> Result<Vec<Subscription>> {
        let rows = sqlx::query(
            "SELECT s.id, s.endpoint, s.device_info, s.created_at, s.last_success_at, s.last_shown_at,
                 (SELECT d.status FROM deliveries d WHERE d.subscription_id = s.id AND d.status <> 'sending' ORDER BY d.updated_at DESC LIMIT 1) AS last_status
             FROM push_subscriptions s WHERE s.user_id = $1 ORDER BY s.created_at",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let info: String = r.try_get("device_info")?;
                let device_info: serde_json::Value = serde_json::from_str(&info).unwrap_or(serde_json::Value::Null);
                let last_status: Option<String> = r.try_get("last_status")?;
                Ok(Subscription {
                    id: r.try_get("id")?,
                    label: crate::domain::device::label(&device_info),
                    platform: crate::domain::device::platform_of(&device_info).to_owned(),
                    endpoint: r.try_get("endpoint")?,
                    created_at: from_millis(r.try_get("created_at")?),
                    last_shown_at: r.try_get::<Option<i64>, _>("last_shown_at")?.map(from_millis),
                    last_success_at: r.try_get::<Option<i64>, _>("last_success_at")?.map(from_millis),
                    status: match last_status.as_deref().and_then(DeviceDeliveryStatus::parse) {
                        Some(DeviceDeliveryStatus::Failed) => DeviceStatus::Failing,
                        _ => DeviceStatus::Active,
                    },
                    device_info,
                })
            })
            .collect()
    }

    pub async fn subscription_keys(&self, user_id: &UserId) -> Result<Vec<SubscriptionKeys>> {
        let rows = sqlx::query("SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at")
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(SubscriptionKeys {
                    id: r.try_get("id")?,
                    endpoint: r.try_get("endpoint")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                })
            })
            .collect()
    }

    /// The ids of a person's devices, oldest first.
    pub async fn device_ids(&self, user_id: &UserId) -> Result<Vec<SubscriptionId>> {
        Ok(sqlx::query_scalar("SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at, id")
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?)
    }

    /// Claims the user's test-push slot: true at most once per `every`.
    pub async fn claim_test_push(&self, user_id: &UserId, now: Timestamp, every: SignedDuration) -> Result<Option<i64>> {
        let now_ms = to_millis(now);
        let claimed = sqlx::query("UPDATE users SET last_test_push_at = $2 WHERE id = $1 AND last_test_push_at <= $3")
            .bind(user_id)
            .bind(now_ms)
            .bind(now_ms - every.as_millis() as i64)
            .execute(&self.pool)
            .await?
            .rows_affected()
            > 0;
        if claimed {
            return Ok(None);
        }
        let last: i64 = sqlx::query_scalar("SELECT last_test_push_at FROM users WHERE id = $1").bind(user_id).fetch_one(&self.pool).await?;
        Ok(Some(((last + every.as_millis() as i64 - now_ms) as f64 / 1000.0).ceil().max(1.0) as i64))
    }
}
