//! What the web app needs to know about this deployment before anyone signs in.

use axum::extract::State;
use hibiki_common::infra::config::Operator;
use serde::Serialize;
use utoipa::ToSchema;

use crate::routes::Answer;
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct Site {
    /// Who runs this Hibiki (each field null when the operator has not configured it).
    pub operator: Operator,
    /// Where the web app reports its errors; null (the default) means error reporting is off.
    pub error_reporting: Option<ErrorReporting>,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorReporting {
    /// A Sentry-compatible DSN.
    pub dsn: String,
    /// Sampling the product spec fixes (§9): traces 0.1, session replay 0.01, replay on error 0.1.
    pub traces_sample_rate: f64,
    pub replays_session_sample_rate: f64,
    pub replays_on_error_sample_rate: f64,
}

/// The operator's details and whether error reporting is on.
#[utoipa::path(get, path = "/api/site", tag = "health", security(()), responses((status = 200, body = Site)))]
pub async fn site(State(state): State<AppState>) -> Answer<Site> {
    let error_reporting = state.config.error_reporting_dsn.as_ref().map(|dsn| ErrorReporting {
        dsn: dsn.to_string(),
        traces_sample_rate: 0.1,
        replays_session_sample_rate: 0.01,
        replays_on_error_sample_rate: 0.1,
    });
    Answer(Site { operator: state.config.operator.clone(), error_reporting })
}
