use axum::extract::State;
use axum::http::{HeaderName, StatusCode};
use hibiki_common::domain::ids::{ListId, LogId, ReminderId, UserId};
use hibiki_common::domain::lifecycle::Ring;
use hibiki_common::domain::recurrence::Recurrence;
use hibiki_common::domain::reminder::{self, PreviewInput, Reminder, ReminderInput, ReminderPatch, StatusFilter, Timing};
use hibiki_common::domain::states::{EntryKind, NotificationAction};
use hibiki_common::error::FieldCode;
use hibiki_common::error::FieldErrors;
use hibiki_common::infra::storage::{DeliveryLog, ReminderQuery};
use hibiki_common::usecases::reminders::{self, NotificationAct, Proof};
use hibiki_common::usecases::ring;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ActionRequest, ApiJson, ApiPath, ApiQuery};
use crate::routes::Answer;
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// active (default), archived or all
    #[serde(default)]
    #[param(value_type = Option<StatusFilter>)]
    pub status: StatusFilter,
    /// 1 to 500, default 500
    pub limit: Option<i64>,
    /// default 0
    pub offset: Option<i64>,
    /// Only this list's reminders.
    pub list_id: Option<String>,
    /// Only those whose title or description holds this text: case, width and kana
    /// (hiragana or katakana) do not matter.
    pub q: Option<String>,
}

/// The longest search text.
const MAX_SEARCH_CHARS: usize = 200;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActionQuery {
    /// `handle` for a notification action; absent to create.
    pub action: Option<String>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CountQuery {
    /// 1 to 50, default 5
    pub count: Option<usize>,
}

#[derive(Serialize, ToSchema)]
pub struct Occurrences {
    #[schema(value_type = Vec<String>)]
    pub occurrences: Vec<Timestamp>,
    /// A reminder's next rings, in time order: snooze, repeats, alerts and occurrences (not in
    /// a preview).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rings: Option<Vec<Ring>>,
    /// With `rotate`: whose turn each occurrence is (a user id per occurrence, in order).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<String>>)]
    pub assignees: Option<Vec<UserId>>,
}

/// The user's reminders, ordered by their next occurrence (archived: newest first), a page at
/// a time; `X-Total-Count` says how many there are in all.
#[utoipa::path(get, path = "/api/reminders", params(ListQuery), tag = "reminders",
    responses((status = 200, body = [Reminder], headers(("X-Total-Count" = i64, description = "reminders in all, over every page")))))]
pub async fn list(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> ApiResult<([(HeaderName, String); 1], Answer<Vec<Reminder>>)> {
    let mut errors = hibiki_common::error::FieldErrors::default();
    let limit = q.limit.unwrap_or(500);
    let offset = q.offset.unwrap_or(0);
    if !(1..=500).contains(&limit) {
        errors.add("limit", FieldCode::OutOfRange.because("limit must be between 1 and 500").with("min", 1).with("max", 500));
    }
    if offset < 0 {
        errors.add("offset", FieldCode::OutOfRange.because("offset must be 0 or more").with("min", 0));
    }
    let list_id = q.list_id.as_deref().and_then(|text| {
        let parsed = text.parse::<ListId>().ok();
        if parsed.is_none() {
            errors.add("list_id", FieldCode::InvalidFormat.because("list_id must be a list's id"));
        }
        parsed
    });
    let search = q.q.filter(|text| !text.trim().is_empty());
    if search.as_ref().is_some_and(|text| text.chars().count() > MAX_SEARCH_CHARS) {
        errors.add(
            "q",
            FieldCode::TooLong.because(format!("q must be at most {MAX_SEARCH_CHARS} characters")).with("max", MAX_SEARCH_CHARS as i64),
        );
    }
    errors.into_result()?;
    let query = ReminderQuery { status: q.status, list_id, search };
    let (page, total) = state.store.list_reminders_page(&auth.user.id, &query, limit, offset, state.clock.now()).await?;
    Ok(([(HeaderName::from_static("x-total-count"), total.to_string())], Answer(page)))
}

/// `POST /api/reminders?action=handle` body.
#[derive(Deserialize, ToSchema)]
pub struct HandleRequest {
    #[schema(value_type = String)]
    pub reminder_id: ReminderId,
    #[schema(value_type = String)]
    pub log_id: LogId,
    pub action: NotificationAction,
    /// 5, 10, 15, 30 or 60; the user's default when absent
    pub snooze_minutes: Option<i64>,
    /// Snooze until this instant instead (within the next 7 days).
    #[serde(default)]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub snooze_until: Option<Timestamp>,
    /// The push's token: authorizes the action without a session (the service worker).
    pub action_token: Option<String>,
}

/// `POST /api/reminders`'s body, by `?action=`: a reminder to create (no action), or a
/// notification's Complete or Snooze (`handle`). Only describes the body: the handler reads
/// the type its action names.
#[derive(ToSchema)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant, reason = "a schema for the document, never built")]
pub enum RemindersPostBody {
    Create(ReminderInput),
    Handle(HandleRequest),
}

/// Create a reminder; with `?action=handle`, complete or snooze it from a notification.
#[utoipa::path(post, path = "/api/reminders", params(ActionQuery), request_body = RemindersPostBody, tag = "reminders",
    // `handle` needs no session: the push's action token can stand in for it.
    security(("bearer" = []), ("session_cookie" = []), ()),
    responses((status = 201, body = Reminder), (status = 200, description = "handled", body = Reminder), (status = 400, description = "VALIDATION_FAILED"), (status = 409, description = "REMINDER_LIMIT")))]
pub async fn create_or_act(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ActionQuery>,
    req: axum::extract::Request,
) -> ApiResult<(StatusCode, Answer<Reminder>)> {
    let mut req = ActionRequest::new(req);
    match q.action.as_deref() {
        None => {
            let auth = req.user(&state).await?;
            create(&state, &auth, req.json(&state).await?).await
        }
        Some("handle") => {
            // A session is optional here: the push's action token can stand in for it.
            let auth = req.optional_user(&state).await;
            handle(&state, auth, req.json(&state).await?).await
        }
        Some(other) => Err(ApiError::field("action", FieldCode::InvalidChoice.because(format!("unknown action {other:?}")))),
    }
}

async fn create(state: &AppState, auth: &AuthUser, input: ReminderInput) -> ApiResult<(StatusCode, Answer<Reminder>)> {
    let created = reminders::create(&state.store, &auth.user.id, input, state.clock.now()).await?;
    metrics::counter!(hibiki_common::metric_names::REMINDERS_CREATED_TOTAL).increment(1);
    Ok((StatusCode::CREATED, Answer(created)))
}

/// Complete or snooze from a notification. The same (log_id, action) twice changes nothing
/// the second time.
async fn handle(state: &AppState, auth: Option<AuthUser>, req: HandleRequest) -> ApiResult<(StatusCode, Answer<Reminder>)> {
    let act = NotificationAct {
        reminder_id: req.reminder_id,
        log_id: req.log_id,
        action: req.action,
        snooze_minutes: req.snooze_minutes,
        snooze_until: req.snooze_until,
    };
    let proof = Proof { user: auth.as_ref().map(|a| &a.user.id), action_token: req.action_token.as_deref() };
    match reminders::act_on_notification(&state.store, act, proof, state.clock.now()).await? {
        Some(acted) => {
            if acted.changed {
                metrics::counter!(hibiki_common::metric_names::NOTIFICATION_ACTIONS_TOTAL, "action" => req.action.as_str()).increment(1);
                if acted.shared && req.action == NotificationAction::Complete {
                    ring::tell_the_others(state.use_cases(), req.log_id, acted.actor).await;
                }
            }
            Ok((StatusCode::OK, Answer(acted.reminder)))
        }
        // Someone else's, or no proof: indistinguishable from a missing entry; asked with
        // nothing at all, it needs a sign-in.
        None if auth.is_none() && req.action_token.is_none() => Err(ApiError::Unauthorized),
        None => Err(ApiError::NotFound),
    }
}

/// `POST /api/reminders/{id}/send`'s answer.
#[derive(Serialize, ToSchema)]
pub struct SendNowAnswer {
    #[schema(value_type = String)]
    pub log_id: LogId,
    /// Devices it was sent to; 0 when the user has none (or none that `send_to` names).
    pub devices: usize,
    /// With no device: whether it went by email instead (the email fallback is on and the
    /// day's 20 are not used up).
    pub email: bool,
}

/// Deliver the reminder to the user's devices now (a delivery log entry is made); with no
/// device, by email when the email fallback is on.
#[utoipa::path(post, path = "/api/reminders/{id}/send", params(("id" = String, Path, description = "the reminder id")), tag = "reminders", responses((status = 202, body = SendNowAnswer), (status = 404), (status = 429, description = "RATE_LIMITED: past 1 per 10 s or 30 per hour")))]
pub async fn send(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ReminderId>,
) -> ApiResult<(StatusCode, Answer<SendNowAnswer>)> {
    let now = state.clock.now();
    let r = state.store.get_reminder(&auth.user.id, &id, now).await?;
    if let Some(retry_after) = state.store.db.send_now_wait(&auth.user.id, now, state.config.send_now_interval_ms as i64).await? {
        return Err(ApiError::RateLimited { retry_after });
    }
    let rang = ring::ring_now(state.use_cases(), &r, &auth.user.id, EntryKind::SendNow, now).await?;
    Ok((StatusCode::ACCEPTED, Answer(SendNowAnswer { log_id: rang.log_id, devices: rang.devices, email: rang.email })))
}

/// One reminder.
#[utoipa::path(get, path = "/api/reminders/{id}", params(("id" = String, Path, description = "the reminder id")), tag = "reminders", responses((status = 200, body = Reminder), (status = 404)))]
pub async fn get(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ReminderId>) -> ApiResult<Answer<Reminder>> {
    Ok(Answer(state.store.get_reminder(&auth.user.id, &id, state.clock.now()).await?))
}

/// Edit any fields of a reminder. A new time must be in the future; giving a completed
/// reminder a new time makes it pending again.
#[utoipa::path(put, path = "/api/reminders/{id}", params(("id" = String, Path, description = "the reminder id")), request_body = ReminderPatch, tag = "reminders",
    responses((status = 200, body = Reminder), (status = 400), (status = 404), (status = 409)))]
pub async fn update(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ReminderId>,
    ApiJson(patch): ApiJson<ReminderPatch>,
) -> ApiResult<Answer<Reminder>> {
    Ok(Answer(reminders::edit(&state.store, &auth.user.id, &id, patch, state.clock.now()).await?))
}

/// `POST /api/reminders/snooze-all` body.
#[derive(Deserialize, ToSchema)]
pub struct SnoozeAll {
    /// Minutes from now (default: the user's default snooze).
    pub snooze_minutes: Option<i64>,
    /// An instant to ring again at instead.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub snooze_until: Option<Timestamp>,
}

#[derive(Serialize, ToSchema)]
pub struct Snoozed {
    /// How many occurrences were snoozed.
    pub snoozed: u32,
}

/// Snooze every occurrence that rings for the user or is overdue: delivered in the last 24
/// hours and not acted on.
#[utoipa::path(post, path = "/api/reminders/snooze-all", request_body = SnoozeAll, tag = "reminders",
    responses((status = 200, body = Snoozed), (status = 400)))]
pub async fn snooze_all(State(state): State<AppState>, auth: AuthUser, ApiJson(body): ApiJson<SnoozeAll>) -> ApiResult<Answer<Snoozed>> {
    let snoozed = reminders::snooze_all(&state.store, &auth.user.id, body.snooze_minutes, body.snooze_until, state.clock.now()).await?;
    metrics::counter!(hibiki_common::metric_names::NOTIFICATION_ACTIONS_TOTAL, "action" => "snooze_all").increment(u64::from(snoozed));
    Ok(Answer(Snoozed { snoozed }))
}

/// Skip the reminder's next occurrence: its local date joins `recurrence.skip` (skipped
/// dates already past make room). 400 for a one-time reminder.
#[utoipa::path(post, path = "/api/reminders/{id}/skip", params(("id" = String, Path, description = "the reminder id")), tag = "reminders",
    responses((status = 200, body = Reminder), (status = 400), (status = 404)))]
pub async fn skip(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ReminderId>) -> ApiResult<Answer<Reminder>> {
    Ok(Answer(reminders::skip_next(&state.store, &auth.user.id, &id, state.clock.now()).await?))
}

/// Done early, before it rings: a one-time reminder is completed; a recurring one's next
/// occurrence (or the snoozed one) is done and will not ring, and it moves on.
#[utoipa::path(post, path = "/api/reminders/{id}/complete", params(("id" = String, Path, description = "the reminder id")), tag = "reminders",
    responses((status = 200, body = Reminder), (status = 404)))]
pub async fn complete_early(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ReminderId>,
) -> ApiResult<Answer<Reminder>> {
    let done = reminders::complete_early(&state.store, &auth.user.id, &id, state.clock.now()).await?;
    metrics::counter!(hibiki_common::metric_names::NOTIFICATION_ACTIONS_TOTAL, "action" => "complete_early").increment(1);
    // Completed from the app after it rang: the others' notifications of that ring go too.
    if state.store.db.reminder_people(&id).await?.members.len() > 1
        && let Some(log_id) = state.store.db.latest_entry(&id).await?
    {
        ring::tell_the_others(state.use_cases(), log_id, auth.user.id).await;
    }
    Ok(Answer(done))
}

/// Delete a reminder and its delivery log.
#[utoipa::path(delete, path = "/api/reminders/{id}", params(("id" = String, Path, description = "the reminder id")), tag = "reminders", responses((status = 204), (status = 404)))]
pub async fn delete(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ReminderId>) -> ApiResult<StatusCode> {
    state.store.db.delete_reminder(&auth.user.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The first `count` occurrences from `send_at` on (inclusive), for the dialog's preview.
#[utoipa::path(post, path = "/api/reminders/preview", params(CountQuery), request_body = PreviewInput, tag = "reminders",
    responses((status = 200, body = Occurrences), (status = 400)))]
pub async fn preview(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiQuery(q): ApiQuery<CountQuery>,
    ApiJson(input): ApiJson<PreviewInput>,
) -> ApiResult<Answer<Occurrences>> {
    let count = reminder::preview_count(q.count)?;
    let mut errors = FieldErrors::default();
    let timezone = match input.timezone {
        Some(tz) => reminder::check_zone(&tz, &mut errors),
        None => state.store.db.settings(&auth.user.id).await?.timezone,
    };
    let recurrence = input.recurrence.unwrap_or(Recurrence::once());
    if let Err(e) = recurrence.validate() {
        errors.add("recurrence", e.problem());
    }
    errors.into_result()?;
    let send_at = hibiki_common::domain::time::ceil_to_second(input.send_at);
    let timing = Timing { send_at, timezone, recurrence };
    Ok(Answer(Occurrences { occurrences: timing.schedule().occurrences(send_at, count), rings: None, assignees: None }))
}

/// The reminder's next occurrences from now.
#[utoipa::path(get, path = "/api/reminders/{id}/occurrences", params(("id" = String, Path, description = "the reminder id"), CountQuery), tag = "reminders",
    responses((status = 200, body = Occurrences), (status = 404)))]
pub async fn occurrences(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ReminderId>,
    ApiQuery(q): ApiQuery<CountQuery>,
) -> ApiResult<Answer<Occurrences>> {
    let count = reminder::preview_count(q.count)?;
    let upcoming = reminders::upcoming(&state.store, &auth.user.id, &id, state.clock.now(), count).await?;
    Ok(Answer(Occurrences { occurrences: upcoming.occurrences, rings: Some(upcoming.rings), assignees: upcoming.turns }))
}

/// The reminder's delivery log, newest first.
#[utoipa::path(get, path = "/api/reminders/{id}/logs", params(("id" = String, Path, description = "the reminder id")), tag = "reminders", responses((status = 200, body = [DeliveryLog]), (status = 404)))]
pub async fn logs(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ReminderId>) -> ApiResult<Answer<Vec<DeliveryLog>>> {
    // Answer 404 for someone else's reminder rather than an empty list.
    state.store.get_reminder(&auth.user.id, &id, state.clock.now()).await?;
    Ok(Answer(state.store.db.delivery_logs(&auth.user.id, &id).await?))
}
