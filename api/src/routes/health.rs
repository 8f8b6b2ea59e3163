use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hibiki_common::storage::DeliveryCounts;
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

/// The health of each part; 503 when the database is unreachable.
#[utoipa::path(get, path = "/api/health", tag = "health", responses((status = 200), (status = 503)))]
pub async fn detail(State(state): State<AppState>) -> Response {
    let database = match tokio::time::timeout(std::time::Duration::from_secs(3), state.db.ping()).await {
        Ok(Ok(())) => "ok",
        _ => "down",
    };
    let scheduler = match state.status.scheduler_last_tick_ms() {
        Some(t) if Timestamp::now().as_millisecond() - t < 5_000 => "ok",
        Some(_) => "stalled",
        None => "not_in_process",
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
    let body = json!({
        "status": status,
        "checks": { "database": database, "queue": queue, "scheduler": scheduler, "mail": mail },
    });
    (code, ok(body)).into_response()
}

#[derive(Serialize, ToSchema)]
pub struct Lateness {
    pub p50_ms: Option<i64>,
    pub p95_ms: Option<i64>,
    pub p99_ms: Option<i64>,
    pub max_ms: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct StatusSummary {
    #[schema(value_type = Option<String>, format = DateTime)]
    pub scheduler_last_tick: Option<Timestamp>,
    pub lateness_1h: Lateness,
    pub queue_depth: i64,
    pub deliveries_5m: DeliveryCounts,
    pub deliveries_1h: DeliveryCounts,
}

fn percentile(sorted: &[i64], p: f64) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.saturating_sub(1).min(sorted.len() - 1)).copied()
}

/// A public summary for the status page.
#[utoipa::path(get, path = "/api/status", tag = "health", responses((status = 200, body = StatusSummary)))]
pub async fn status(State(state): State<AppState>) -> ApiResult<Json<serde_json::Value>> {
    let now = Timestamp::now();
    let hour_ago = now - SignedDuration::from_hours(1);
    let lateness = state.db.lateness_since(hour_ago).await?;
    Ok(ok(StatusSummary {
        scheduler_last_tick: state.status.scheduler_last_tick_ms().map(hibiki_common::time::from_millis),
        lateness_1h: Lateness {
            p50_ms: percentile(&lateness, 50.0),
            p95_ms: percentile(&lateness, 95.0),
            p99_ms: percentile(&lateness, 99.0),
            max_ms: lateness.last().copied(),
        },
        queue_depth: state.queues.depth().await.unwrap_or(-1),
        deliveries_5m: state.db.delivery_counts_since(now - SignedDuration::from_mins(5)).await?,
        deliveries_1h: state.db.delivery_counts_since(hour_ago).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<i64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&v, 99.0), Some(99));
        assert_eq!(percentile(&[7], 99.0), Some(7));
        assert_eq!(percentile(&[], 50.0), None);
    }
}
