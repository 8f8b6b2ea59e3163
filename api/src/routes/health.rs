use axum::extract::State;
use axum::http::StatusCode;
use hibiki_common::infra::status::{SCHEDULER_LEASE, SCHEDULER_LEASE_TTL_MS, percentile};
use hibiki_common::infra::storage::{DeliveryCounts, TimelineBucket};
use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::routes::Answer;
use crate::state::AppState;

/// `GET /api/health`'s answer, with the 200 and with the 503.
#[derive(Serialize, ToSchema, Clone)]
pub struct Health {
    /// `ok` or `degraded`.
    pub status: &'static str,
    pub checks: HealthChecks,
    /// The last date the shipped Japanese holiday table covers.
    #[schema(value_type = String, format = Date)]
    pub holidays_until: jiff::civil::Date,
}

#[derive(Serialize, ToSchema, Clone)]
pub struct HealthChecks {
    /// `ok` or `down`.
    pub database: &'static str,
    /// `ok`, `backlogged` (10,000 jobs or more) or `down`.
    pub queue: &'static str,
    /// `ok`, `stalled` (no sign of life for 5 s) or `none` (no scheduler seen yet).
    pub scheduler: &'static str,
    /// `smtp`, or `outbox` (mail is only kept in the server's outbox).
    pub mail: &'static str,
    /// The holiday table: `ok`, `expiring` (within 90 days) or `expired`.
    pub holidays: &'static str,
}

/// Answers as soon as the process serves; no checks.
#[utoipa::path(head, path = "/api/health", tag = "health", security(()), responses((status = 200)))]
pub async fn head() -> StatusCode {
    StatusCode::OK
}

/// The health of each part; 503 when the database is unreachable. At most 2 s old.
#[utoipa::path(get, path = "/api/health", tag = "health", security(()),
    responses((status = 200, body = Health), (status = 503, body = Health, description = "the database is unreachable")))]
pub async fn detail(State(state): State<AppState>) -> (StatusCode, Answer<Health>) {
    let answers = state.answers.clone();
    let Ok((code, body)) = answers.health.get_or_make(|| async { Ok::<_, std::convert::Infallible>(check_health(&state).await) }).await;
    (code, Answer(body))
}

async fn check_health(state: &AppState) -> (StatusCode, Health) {
    let database = match tokio::time::timeout(std::time::Duration::from_secs(3), state.store.db.ping()).await {
        Ok(Ok(())) => "ok",
        _ => "down",
    };
    let scheduler = match scheduler_last_seen_ms(state).await {
        Some(t) if state.clock.now().as_millisecond() - t < 5_000 => "ok",
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
    let table = hibiki_common::domain::holidays::table();
    let holidays = table.coverage_now();
    let body = Health { status, checks: HealthChecks { database, queue, scheduler, mail, holidays }, holidays_until: table.last };
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
    /// Each kind of channel: on or off on this server, and its sends in the last hour.
    pub channels: Vec<ChannelHealth>,
}

/// A kind of channel's health.
#[derive(Serialize, ToSchema, Clone)]
pub struct ChannelHealth {
    pub kind: hibiki_common::domain::channels::ChannelKind,
    /// `off` (Telegram or LINE without the operator's bot), `idle` (nothing sent in the last
    /// hour), `ok`, or `failing` (more than half of the last hour's sends failed).
    pub status: &'static str,
    pub sent_1h: i64,
    pub failed_1h: i64,
}

async fn channel_health(state: &AppState, since: Timestamp) -> ApiResult<Vec<ChannelHealth>> {
    use hibiki_common::domain::channels::ChannelKind;
    let counts = state.store.db.channel_send_counts(since).await?;
    Ok([ChannelKind::Ntfy, ChannelKind::Webhook, ChannelKind::Telegram, ChannelKind::Line]
        .into_iter()
        .map(|kind| {
            let (sent_1h, failed_1h) = counts.get(kind.as_str()).copied().unwrap_or((0, 0));
            let on = match kind {
                ChannelKind::Telegram => state.bots.telegram_enabled(),
                ChannelKind::Line => state.bots.line_enabled(),
                _ => true,
            };
            let status = match (on, sent_1h + failed_1h) {
                (false, _) => "off",
                (true, 0) => "idle",
                (true, _) if failed_1h > sent_1h => "failing",
                _ => "ok",
            };
            ChannelHealth { kind, status, sent_1h, failed_1h }
        })
        .collect())
}

/// Unix ms when a scheduler last showed life: its tick when it runs in this process, else the
/// last renewal of the leader's lease (scaled out, the scheduler is another process).
async fn scheduler_last_seen_ms(state: &AppState) -> Option<i64> {
    if let Some(tick) = state.status.scheduler_last_tick_ms() {
        return Some(tick);
    }
    let expiry = state.store.db.lease_expiry(SCHEDULER_LEASE).await.ok()??;
    Some((expiry - SCHEDULER_LEASE_TTL_MS).min(state.clock.now().as_millisecond()))
}

/// A public summary for the status page, at most 2 s old.
#[utoipa::path(get, path = "/api/status", tag = "health", security(()), responses((status = 200, body = StatusSummary)))]
pub async fn status(State(state): State<AppState>) -> ApiResult<Answer<StatusSummary>> {
    let answers = state.answers.clone();
    Ok(Answer(answers.status.get_or_make(|| summarize(&state)).await?))
}

async fn summarize(state: &AppState) -> ApiResult<StatusSummary> {
    let now = state.clock.now();
    let hour_ago = now - SignedDuration::from_hours(1);
    // One read feeds the timeline and the last hour's lateness.
    let (timeline_1h, samples) = state.store.db.delivery_timeline_with_lateness(now, SignedDuration::from_mins(5), 12).await?;
    let mut lateness: Vec<i64> =
        samples.into_iter().filter(|(created, _)| *created > hour_ago.as_millisecond()).map(|(_, late)| late).collect();
    lateness.sort_unstable();
    Ok(StatusSummary {
        scheduler_last_tick: scheduler_last_seen_ms(state).await.map(hibiki_common::domain::time::from_millis),
        lateness_1h: Lateness {
            p50_ms: percentile(&lateness, 50.0),
            p95_ms: percentile(&lateness, 95.0),
            p99_ms: percentile(&lateness, 99.0),
            max_ms: lateness.last().copied(),
        },
        queue_depth: state.queues.depth().await.unwrap_or(-1),
        deliveries_5m: state.store.db.delivery_counts_since(now - SignedDuration::from_mins(5)).await?,
        deliveries_1h: state.store.db.delivery_counts_since(hour_ago).await?,
        timeline_1h,
        holidays_until: hibiki_common::domain::holidays::table().last,
        holidays: hibiki_common::domain::holidays::table().coverage_now(),
        channels: channel_health(state, hour_ago).await?,
    })
}
