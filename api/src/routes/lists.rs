//! Lists (decisions.md "Households"): every list the person belongs to, and the owner's
//! changes to their own.

use axum::extract::State;
use axum::http::StatusCode;
use hibiki_common::domain::email::Email;
use hibiki_common::domain::ids::{InviteId, ListId, UserId};
use hibiki_common::domain::lists::{self, Invite, InviteInput, InvitePeek, InviteToken, List, ListInput, ListPatch, Member};
use hibiki_common::error::{FieldCode, FieldErrors};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::Answer;
use crate::state::AppState;

/// Every list the user belongs to: their default list first.
#[utoipa::path(get, path = "/api/lists", operation_id = "list_lists", tag = "lists", responses((status = 200, body = [List])))]
pub async fn list(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Answer<Vec<List>>> {
    let language = state.store.db.settings(&auth.user.id).await?.language;
    Ok(Answer(state.store.lists_of(&auth.user.id, language, state.clock.now()).await?))
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
    let made = state.store.create_list(&auth.user.id, &name, colour, language, state.clock.now()).await?;
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
    let list = state.store.update_list(&auth.user.id, &id, &patch, language, state.clock.now()).await?;
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

/// The people in a list the user belongs to (the owner first); co-members see each other's
/// addresses.
#[utoipa::path(get, path = "/api/lists/{id}/members", operation_id = "list_members", params(("id" = String, Path, description = "the list id")), tag = "lists",
    responses((status = 200, body = [Member]), (status = 404)))]
pub async fn members(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ListId>) -> ApiResult<Answer<Vec<Member>>> {
    Ok(Answer(state.store.db.members(&auth.user.id, &id).await?))
}

/// The owner removes a member, or a member leaves (their own user id). Their access and
/// their reminders of the list stop at once.
#[utoipa::path(delete, path = "/api/lists/{id}/members/{user_id}", operation_id = "remove_list_member",
    params(("id" = String, Path, description = "the list id"), ("user_id" = String, Path, description = "the member's user id")), tag = "lists",
    responses((status = 204), (status = 403, description = "FORBIDDEN: a member removing another, or the owner leaving their own list"), (status = 404)))]
pub async fn remove_member(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath((id, user_id)): ApiPath<(ListId, UserId)>,
) -> ApiResult<StatusCode> {
    state.store.db.remove_member(&auth.user.id, &id, &user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Invite someone to the owner's list by email (the mail goes in the owner's language).
#[utoipa::path(post, path = "/api/lists/{id}/invites", operation_id = "create_list_invite", params(("id" = String, Path, description = "the list id")),
    request_body = InviteInput, tag = "lists",
    responses((status = 201, body = Invite), (status = 400, description = "VALIDATION_FAILED"), (status = 403, description = "FORBIDDEN: a member"),
        (status = 404), (status = 409, description = "MEMBER_LIMIT or ALREADY_MEMBER"), (status = 429, description = "RATE_LIMITED: 10 a day")))]
pub async fn invite(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ListId>,
    ApiJson(input): ApiJson<InviteInput>,
) -> ApiResult<(StatusCode, Answer<Invite>)> {
    let email = Email::parse(&input.email).map_err(|m| ApiError::field("email", FieldCode::InvalidFormat.because(m)))?;
    let made = hibiki_common::usecases::mail::invite(state.use_cases(), &auth.user.id, &id, &email, state.clock.now()).await?;
    Ok((StatusCode::CREATED, Answer(made)))
}

/// The owner's pending invitations of a list.
#[utoipa::path(get, path = "/api/lists/{id}/invites", operation_id = "list_list_invites", params(("id" = String, Path, description = "the list id")), tag = "lists",
    responses((status = 200, body = [Invite]), (status = 403, description = "FORBIDDEN: a member"), (status = 404)))]
pub async fn invites(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ListId>) -> ApiResult<Answer<Vec<Invite>>> {
    Ok(Answer(state.store.db.pending_invites(&auth.user.id, &id, state.clock.now()).await?))
}

/// The owner cancels a pending invitation: its link stops working.
#[utoipa::path(delete, path = "/api/lists/{id}/invites/{invite_id}", operation_id = "cancel_list_invite",
    params(("id" = String, Path, description = "the list id"), ("invite_id" = String, Path, description = "the invitation id")), tag = "lists",
    responses((status = 204), (status = 403, description = "FORBIDDEN: a member"), (status = 404)))]
pub async fn cancel_invite(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath((id, invite_id)): ApiPath<(ListId, InviteId)>,
) -> ApiResult<StatusCode> {
    state.store.db.cancel_invite(&auth.user.id, &id, &invite_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What an invitation link shows before it is accepted (addresses masked); spends nothing and
/// needs no session.
#[utoipa::path(post, path = "/api/invites/peek", operation_id = "peek_invite", request_body = InviteToken, tag = "lists", security(()),
    responses((status = 200, body = InvitePeek), (status = 400, description = "INVITE_INVALID")))]
pub async fn peek(State(state): State<AppState>, ApiJson(input): ApiJson<InviteToken>) -> ApiResult<Answer<InvitePeek>> {
    Ok(Answer(state.store.peek_invite(&input.token, state.clock.now()).await?))
}

/// Accept an invitation signed in as the invited address: the user joins the list.
#[utoipa::path(post, path = "/api/invites/accept", operation_id = "accept_invite", request_body = InviteToken, tag = "lists",
    responses((status = 200, body = List), (status = 400, description = "INVITE_INVALID: bad, used or expired"), (status = 403, description = "INVITE_WRONG_ACCOUNT")))]
pub async fn accept(State(state): State<AppState>, auth: AuthUser, ApiJson(input): ApiJson<InviteToken>) -> ApiResult<Answer<List>> {
    let language = state.store.db.settings(&auth.user.id).await?.language;
    let list = state.store.accept_invite(&auth.user.id, &auth.user.email, &input.token, language, state.clock.now()).await?;
    tracing::info!(list_id = %list.id, user_id = %auth.user.id, "invitation accepted");
    Ok(Answer(list))
}
