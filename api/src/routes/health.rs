use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hibiki_common::status::{SCHEDULER_LEASE, SCHEDULER_LEASE_TTL_MS, percentile};
use hibiki_common::storage::{DeliveryCounts, TimelineBucket};
use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::routes::ok;
use crate::state::AppState;

/// Answers as soon as the process serves; no checks.
#[utoipa::path(head, path = "/api/health", tag = "health", responses((status = 200)))]
pub async fn head() -> StatusCode {
    StatusCode::OK
}

/// The health of each part; 503 when the database is unreachable. At most 2 s old.
#[utoipa::path(get, path = "/api/health", tag = "health", responses((status = 200), (status = 503)))]
pub async fn detail(State(state): State<AppState>) -> Response {
    let answers = state.answers.clone();
    let Ok((code, body)) = answers.health.get_or_make(|| async { Ok::<_, std::convert::Infallible>(check_health(&state).await) }).await;
    (code, ok(body)).into_response()
}

async fn check_health(state: &AppState) -> (StatusCode, serde_json::Value) {
    let database = match tokio::time::timeout(std::time::Duration::from_secs(3), state.db.ping()).await {
        Ok(Ok(())) => "ok",
        _ => "down",
    };
    let scheduler = match scheduler_last_seen_ms(state).await {
        Some(t) if Timestamp::now().as_millisecond() - t < 5_000 => "ok",
        Some(_) => "stalled",
        None => "none",
    };
    let mail = if state.config.smtp_url.is_some() { "smtp" } else { "outbox" };
    let queue = match tokio::time::timeout(std::time::Duration::from_secs(3), state.queues.depth()).await {
        Ok(Ok(depth)) if depth < 10_000 => "ok",
        Ok(Ok(_)) => "backlogged",
        _ => "down",
    };
    let degraded = database != "ok" || scheduler == "stalled" || queue != "ok";
    let status = if degraded { "degraded" } else { "ok" };
    let code = if database == "ok" { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    // The shipped holiday table runs out some day: warn 90 days ahead (it does not degrade
    // delivery; schedules just stop seeing holidays after it).
    let table = hibiki_common::holidays::table();
    let holidays = table.coverage_now();
    let body = json!({
        "status": status,
        "checks": { "database": database, "queue": queue, "scheduler": scheduler, "mail": mail, "holidays": holidays },
        "holidays_until": table.last.to_string(),
    });
    (code, body)
}

#[derive(Serialize, ToSchema, Clone)]
pub struct Lateness {
    pub p50_ms: Option<i64>,
    pub p95_ms: Option<i64>,
    pub p99_ms: Option<i64>,
    pub max_ms: Option<i64>,
}

#[derive(Serialize, ToSchema, Clone)]
pub struct StatusSummary {
    #[schema(value_type = Option<String>, format = DateTime)]
    pub scheduler_last_tick: Option<Timestamp>,
    pub lateness_1h: Lateness,
    pub queue_depth: i64,
    pub deliveries_5m: DeliveryCounts,
    pub deliveries_1h: DeliveryCounts,
    /// The last hour in 12 buckets of 5 minutes, oldest first.
    pub timeline_1h: Vec<TimelineBucket>,
    /// The last date the shipped Japanese holiday table covers.
    #[schema(value_type = String, format = Date)]
    pub holidays_until: jiff::civil::Date,
    /// `ok`, `expiring` (within 90 days) or `expired`.
    pub holidays: &'static str,
}

/// Unix ms when a scheduler last showed life: its tick when it runs in this process, else the
/// last renewal of the leader's lease (scaled out, the scheduler is another process).
async fn scheduler_last_seen_ms(state: &AppState) -> Option<i64> {
    if let Some(tick) = state.status.scheduler_last_tick_ms() {
        return Some(tick);
    }
    let expiry = state.db.lease_expiry(SCHEDULER_LEASE).await.ok()??;
    Some((expiry - SCHEDULER_LEASE_TTL_MS).min(Timestamp::now().as_millisecond()))
}

/// A public summary for the status page, at most 2 s old.
#[utoipa::path(get, path = "/api/status", tag = "health", responses((status = 200, body = StatusSummary)))]
pub async fn status(State(state): State<AppState>) -> ApiResult<Json<serde_json::Value>> {
    let answers = state.answers.clone();
    Ok(ok(answers.status.get_or_make(|| summarize(&state)).await?))
}

async fn summarize(state: &AppState) -> ApiResult<StatusSummary> {
    let now = Timestamp::now();
    let hour_ago = now - SignedDuration::from_hours(1);
    // One read feeds the timeline and the last hour's lateness.
    let (timeline_1h, samples) = state.db.delivery_timeline_with_lateness(now, SignedDuration::from_mins(5), 12).await?;
    let mut lateness: Vec<i64> =
        samples.into_iter().filter(|(created, _)| *created > hour_ago.as_millisecond()).map(|(_, late)| late).collect();
    lateness.sort_unstable();
    Ok(StatusSummary {
        scheduler_last_tick: scheduler_last_seen_ms(state).await.map(hibiki_common::time::from_millis),
        lateness_1h: Lateness {
            p50_ms: percentile(&lateness, 50.0),
            p95_ms: percentile(&lateness, 95.0),
            p99_ms: percentile(&lateness, 99.0),
            max_ms: lateness.last().copied(),
        },
        queue_depth: state.queues.depth().await.unwrap_or(-1),
        deliveries_5m: state.db.delivery_counts_since(now - SignedDuration::from_mins(5)).await?,
        deliveries_1h: state.db.delivery_counts_since(hour_ago).await?,
        timeline_1h,
        holidays_until: hibiki_common::holidays::table().last,
        holidays: hibiki_common::holidays::table().coverage_now(),
    })
}
