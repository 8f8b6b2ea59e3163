//! Trigger links (api.md "Tokens, triggers, export and import"): a reminder's secret URLs.
//! `POST /t/{secret}` rings it now for the link's maker, or completes or snoozes it; `GET` is
//! the app's page, which reads `GET /api/triggers/{secret}` and never acts by itself.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hibiki_common::domain::ids::{ReminderId, TriggerId};
use hibiki_common::domain::states::{EntryKind, NotificationAction};
use hibiki_common::domain::triggers::{
    CreatedTrigger, Trigger, TriggerActed, TriggerAction, TriggerInput, TriggerPage, TriggerRang, looks_like_secret, secret_text,
};
use hibiki_common::infra::crypto::{random_bytes, session_hash};
use hibiki_common::infra::storage::TriggerTarget;
use hibiki_common::usecases::triggers;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiPath, parse_json};
use crate::routes::Answer;
use crate::state::AppState;
use hibiki_common::usecases::ring;

/// A new trigger link for a reminder the person can see; its URL is answered once.
#[utoipa::path(post, path = "/api/reminders/{id}/triggers", operation_id = "create_trigger", tag = "triggers",
    params(("id" = String, Path, description = "the reminder id")),
    responses((status = 201, body = CreatedTrigger), (status = 404), (status = 409, description = "TRIGGER_LIMIT (5 per reminder)")))]
pub async fn create(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ReminderId>,
) -> ApiResult<(StatusCode, Answer<CreatedTrigger>)> {
    let now = state.clock.now();
    let r = state.store.get_reminder(&auth.user.id, &id, now).await?;
    let secret = secret_text(random_bytes());
    let trigger_id = state.store.db.create_trigger(&auth.user.id, &r.id, &session_hash(&secret), now).await?;
    let base = state.config.public_url.as_str().trim_end_matches('/');
    Ok((StatusCode::CREATED, Answer(CreatedTrigger { id: trigger_id, url: format!("{base}/t/{secret}") })))
}

/// A reminder's trigger links (never their secrets).
#[utoipa::path(get, path = "/api/reminders/{id}/triggers", operation_id = "list_triggers", tag = "triggers",
    params(("id" = String, Path, description = "the reminder id")), responses((status = 200, body = [Trigger]), (status = 404)))]
pub async fn list(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ReminderId>) -> ApiResult<Answer<Vec<Trigger>>> {
    let r = state.store.get_reminder(&auth.user.id, &id, state.clock.now()).await?;
    Ok(Answer(state.store.db.triggers(&r.id).await?))
}

/// Delete a trigger link: it stops working at once.
#[utoipa::path(delete, path = "/api/reminders/{id}/triggers/{trigger_id}", operation_id = "delete_trigger", tag = "triggers",
    params(("id" = String, Path, description = "the reminder id"), ("trigger_id" = String, Path)),
    responses((status = 204), (status = 404)))]
pub async fn delete(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath((id, trigger_id)): ApiPath<(ReminderId, TriggerId)>,
) -> ApiResult<StatusCode> {
    let r = state.store.get_reminder(&auth.user.id, &id, state.clock.now()).await?;
    state.store.db.delete_trigger(&r.id, &trigger_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The trigger a path's secret names; 404 for anything else. A use that acts counts against
/// the link's limit (its page's reads do not: a person pressing its buttons would run out).
async fn target(state: &AppState, secret: &str, acts: bool) -> ApiResult<TriggerTarget> {
    if !looks_like_secret(secret) {
        return Err(ApiError::NotFound);
    }
    let hash = session_hash(secret);
    let target = state.store.db.trigger_by_secret(&hash).await?.ok_or(ApiError::NotFound)?;
    if acts {
        state.limiters.check_trigger(&hash)?;
    }
    Ok(target)
}

/// A trigger's answer: 202 with the entry for a ring, 200 for a complete or snooze.
pub enum Fired {
    Rang(TriggerRang),
    Acted(TriggerActed),
}

impl IntoResponse for Fired {
    fn into_response(self) -> Response {
        match self {
            Fired::Rang(rang) => (StatusCode::ACCEPTED, Answer(rang)).into_response(),
            Fired::Acted(acted) => Answer(acted).into_response(),
        }
    }
}

/// Ring the reminder now on its maker's devices (an empty body does), or complete or snooze it
/// (`{"action": "complete"}`); no other authorization than the secret. 6 a minute per link.
#[utoipa::path(post, path = "/t/{secret}", operation_id = "fire_trigger", tag = "triggers", security(()),
    params(("secret" = String, Path, description = "the trigger link's secret")),
    request_body(content = Option<TriggerInput>, description = "optional: an empty body rings"),
    responses((status = 202, body = TriggerRang, description = "rung: a delivery log entry of kind trigger"),
        (status = 200, body = TriggerActed, description = "completed or snoozed"), (status = 400), (status = 404), (status = 429)))]
pub async fn fire(State(state): State<AppState>, Path(secret): Path<String>, body: Bytes) -> ApiResult<Fired> {
    let target = target(&state, &secret, true).await?;
    // Automations send what they can: no body, an empty one, or JSON of any content type.
    let input: TriggerInput = if body.iter().all(u8::is_ascii_whitespace) { TriggerInput::default() } else { parse_json(&body)? };
    let now = state.clock.now();
    let fired = match input.action {
        TriggerAction::Ring => {
            let r = state.store.get_reminder(&target.user_id, &target.reminder_id, now).await?;
            let rang = ring::ring_now(state.use_cases(), &r, &target.user_id, EntryKind::Trigger, now).await?;
            Fired::Rang(TriggerRang { log_id: rang.log_id })
        }
        action @ (TriggerAction::Complete | TriggerAction::Snooze) => {
            let as_notification = if action == TriggerAction::Complete { NotificationAction::Complete } else { NotificationAction::Snooze };
            let done = triggers::act(&state.store, &target, as_notification, input.snooze_minutes, now).await?;
            if let Some((log_id, by)) = done.tell_others {
                ring::tell_the_others(state.use_cases(), log_id, by).await;
            }
            Fired::Acted(TriggerActed { action, changed: done.changed, next_at: done.next_at })
        }
    };
    state.store.db.touch_trigger(&target.id, now).await?;
    metrics::counter!(hibiki_common::metric_names::TRIGGER_USES_TOTAL, "action" => match input.action {
        TriggerAction::Ring => "ring",
        TriggerAction::Complete => "complete",
        TriggerAction::Snooze => "snooze",
    })
    .increment(1);
    Ok(fired)
}

/// The trigger link opened in a browser: the app's page (it reads [`page`] and acts only when a
/// button is pressed).
#[utoipa::path(get, path = "/t/{secret}", operation_id = "open_trigger", tag = "triggers", security(()),
    params(("secret" = String, Path, description = "the trigger link's secret")),
    responses((status = 200, content_type = "text/html", body = String, description = "the web app"), (status = 404, description = "the web app is not built")))]
pub async fn open(state: State<AppState>, req: axum::extract::Request) -> Response {
    crate::web::page(state, req).await
}

/// What a trigger link's page shows: the reminder's title (unless its maker hides notification
/// content), whether something rings now, when it rings next. Never acts (and so is not counted
/// against the link's 6 uses a minute; the API's per-client limit applies).
#[utoipa::path(get, path = "/api/triggers/{secret}", operation_id = "trigger_page", tag = "triggers", security(()),
    params(("secret" = String, Path, description = "the trigger link's secret")),
    responses((status = 200, body = TriggerPage), (status = 404)))]
pub async fn page(State(state): State<AppState>, Path(secret): Path<String>) -> ApiResult<Answer<TriggerPage>> {
    let target = target(&state, &secret, false).await?;
    Ok(Answer(triggers::page(&state.store, &target, state.clock.now()).await?))
}
