use axum::extract::State;
use axum::http::StatusCode;
use hibiki_common::domain::settings::{Settings, SettingsPatch};
use hibiki_common::error::FieldCode;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::{AuthUser, SignedOut, signed_out};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::routes::{Answer, Queued};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
pub struct DeleteAccount {
    /// The user's own email address, typed again.
    pub confirm: String,
}

/// The user's settings.
#[utoipa::path(get, path = "/api/settings", tag = "account", responses((status = 200, body = Settings)))]
pub async fn get_settings(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Answer<Settings>> {
    Ok(Answer(state.store.db.settings(&auth.user.id).await?))
}

/// Change any settings.
#[utoipa::path(put, path = "/api/settings", request_body = SettingsPatch, tag = "account", responses((status = 200, body = Settings), (status = 400)))]
pub async fn put_settings(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(mut patch): ApiJson<SettingsPatch>,
) -> ApiResult<Answer<Settings>> {
    // A brief may go to one of the person's linked channels.
    let channels: Vec<String> = state
        .store
        .db
        .channels(&auth.user.id)
        .await?
        .into_iter()
        .filter(|c| c.status != hibiki_common::domain::channels::ChannelStatus::Pending)
        .map(|c| c.id.to_string())
        .collect();
    patch.check(&channels)?;
    let mut settings = state.store.db.settings(&auth.user.id).await?;
    patch.apply(&mut settings);
    state.store.db.save_settings(&auth.user.id, &settings, state.clock.now()).await?;
    Ok(Answer(settings))
}

/// Delete the account and everything in it.
#[utoipa::path(delete, path = "/api/account", request_body = DeleteAccount, tag = "account", responses((status = 204), (status = 400)))]
pub async fn delete_account(State(state): State<AppState>, auth: AuthUser, ApiJson(req): ApiJson<DeleteAccount>) -> ApiResult<SignedOut> {
    if !req.confirm.trim().eq_ignore_ascii_case(auth.user.email.as_str()) {
        return Err(ApiError::field("confirm", FieldCode::InvalidChoice.because("Type your email address to confirm")));
    }
    state.store.db.delete_user(&auth.user).await?;
    // Nothing of the account stays behind: its queued jobs, and its mails in the outbox.
    let jobs = state.queues.forget_user(&auth.user.id).await.map_err(|_| ApiError::Unavailable("queue"))?;
    let mails = if state.config.smtp_url.is_none() {
        hibiki_common::infra::outbox::forget(&hibiki_common::infra::outbox::dir(&state.config.data_dir), auth.user.email.as_str())
            .unwrap_or_else(|e| {
                tracing::warn!(error = %e, user_id = %auth.user.id, "could not clear the outbox of a deleted account");
                0
            })
    } else {
        0
    };
    tracing::info!(user_id = %auth.user.id, jobs, mails, "account deleted");
    Ok(signed_out(state.config.secure_cookies()))
}

/// Send a test email to the user (3 per hour).
#[utoipa::path(post, path = "/api/test-email", tag = "account", responses((status = 202, body = Queued), (status = 429, description = "RATE_LIMITED")))]
pub async fn test_email(State(state): State<AppState>, auth: AuthUser) -> ApiResult<(StatusCode, Answer<Queued>)> {
    hibiki_common::usecases::mail::test_email(state.use_cases(), &auth.user.id, &auth.user.email, state.clock.now()).await?;
    Ok((StatusCode::ACCEPTED, Answer(Queued { queued: true })))
}
