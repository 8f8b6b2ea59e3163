//! Lists (decisions.md "Households"): every list the person belongs to, and the owner's
//! changes to their own.

use axum::extract::State;
use axum::http::StatusCode;
use hibiki_common::domain::ids::ListId;
use hibiki_common::domain::lists::{self, List, ListInput, ListPatch};
use hibiki_common::error::FieldErrors;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiPath};
use crate::routes::Answer;
use crate::state::AppState;

/// Every list the user belongs to: their default list first.
#[utoipa::path(get, path = "/api/lists", operation_id = "list_lists", tag = "lists", responses((status = 200, body = [List])))]
pub async fn list(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Answer<Vec<List>>> {
    let language = state.store.db.settings(&auth.user.id).await?.language;
    Ok(Answer(state.store.db.lists_of(&state.store.keys, &auth.user.id, language, state.clock.now()).await?))
}

/// A new list of the user's own (at most 50 besides the default list).
#[utoipa::path(post, path = "/api/lists", operation_id = "create_list", request_body = ListInput, tag = "lists",
    responses((status = 201, body = List), (status = 400, description = "VALIDATION_FAILED"), (status = 409, description = "LIST_LIMIT")))]
pub async fn create(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(input): ApiJson<ListInput>,
) -> ApiResult<(StatusCode, Answer<List>)> {
    let mut errors = FieldErrors::default();
    let name = lists::check_list_name(&input.name, &mut errors);
    errors.into_result()?;
    let language = state.store.db.settings(&auth.user.id).await?.language;
    let colour = input.colour.unwrap_or_default();
    let made = state.store.db.create_list(&state.store.keys, &auth.user.id, &name, colour, language, state.clock.now()).await?;
    Ok((StatusCode::CREATED, Answer(made)))
}

/// Rename or recolour a list (its owner only).
#[utoipa::path(put, path = "/api/lists/{id}", operation_id = "update_list", params(("id" = String, Path, description = "the list id")), request_body = ListPatch, tag = "lists",
    responses((status = 200, body = List), (status = 400, description = "VALIDATION_FAILED"), (status = 403, description = "FORBIDDEN: a member, not the owner"), (status = 404)))]
pub async fn update(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ListId>,
    ApiJson(mut patch): ApiJson<ListPatch>,
) -> ApiResult<Answer<List>> {
    let mut errors = FieldErrors::default();
    patch.name = patch.name.map(|n| lists::check_list_name(&n, &mut errors));
    errors.into_result()?;
    let language = state.store.db.settings(&auth.user.id).await?.language;
    let list = state.store.db.update_list(&state.store.keys, &auth.user.id, &id, &patch, language, state.clock.now()).await?;
    Ok(Answer(list))
}

/// Delete a list and every reminder in it (its owner only; never the default list).
#[utoipa::path(delete, path = "/api/lists/{id}", operation_id = "delete_list", params(("id" = String, Path, description = "the list id")), tag = "lists",
    responses((status = 204), (status = 400, description = "DEFAULT_LIST"), (status = 403, description = "FORBIDDEN: a member, not the owner"), (status = 404)))]
pub async fn delete(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ListId>) -> ApiResult<StatusCode> {
    let gone = state.store.db.delete_list(&auth.user.id, &id).await?;
    tracing::info!(list_id = %id, reminders = gone.len(), "list deleted");
    Ok(StatusCode::NO_CONTENT)
}
