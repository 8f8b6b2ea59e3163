//! Personal API tokens (api.md "Tokens, triggers, export and import"): made, listed and
//! deleted by the signed-in person; a token itself never reaches these routes.

use axum::extract::State;
use axum::http::StatusCode;
use hibiki_common::domain::ids::ApiTokenId;
use hibiki_common::domain::tokens::{ApiToken, NewApiToken, token_text};
use hibiki_common::infra::crypto::{random_bytes, session_hash};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::Answer;
use crate::state::AppState;

/// A new token, with the token itself: shown only now.
#[derive(Serialize, ToSchema)]
pub struct CreatedApiToken {
    #[serde(flatten)]
    pub listed: ApiToken,
    /// `hbk_…`: use it as `Authorization: Bearer <token>`.
    pub token: String,
}

/// The person's API tokens, newest first.
#[utoipa::path(get, path = "/api/tokens", operation_id = "list_api_tokens", tag = "tokens", responses((status = 200, body = [ApiToken]), (status = 401)))]
pub async fn list(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Answer<Vec<ApiToken>>> {
    Ok(Answer(state.store.db.tokens(&auth.user.id).await?))
}

/// Make a token with scopes and an optional expiry; the token is answered once.
#[utoipa::path(post, path = "/api/tokens", operation_id = "create_api_token", request_body = NewApiToken, tag = "tokens",
    responses((status = 201, body = CreatedApiToken), (status = 400, description = "VALIDATION_FAILED"), (status = 409, description = "TOKEN_LIMIT")))]
pub async fn create(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(input): ApiJson<NewApiToken>,
) -> ApiResult<(StatusCode, Answer<CreatedApiToken>)> {
    let now = state.clock.now();
    let request =
        input.check(now).map_err(|problems| ApiError::Validation(problems.into_iter().map(|(f, p)| (f.to_owned(), p)).collect()))?;
    let token = token_text(random_bytes());
    let listed = state.store.db.create_token(&auth.user.id, &request, &session_hash(&token), now).await?;
    tracing::info!(user_id = %auth.user.id, token_id = %listed.id, "API token made");
    Ok((StatusCode::CREATED, Answer(CreatedApiToken { listed, token })))
}

/// Delete a token: it stops working at once.
#[utoipa::path(delete, path = "/api/tokens/{id}", operation_id = "delete_api_token", tag = "tokens", params(("id" = String, Path)),
    responses((status = 204), (status = 404, description = "NOT_FOUND")))]
pub async fn delete(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ApiTokenId>) -> ApiResult<StatusCode> {
    state.store.db.delete_token(&auth.user.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
