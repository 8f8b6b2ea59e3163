//! Export and import (api.md "Tokens, triggers, export and import").

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use hibiki_common::domain::transfer::{ExportDocument, ImportReport, MAX_IMPORT_BYTES};
use hibiki_common::error::FieldCode;
use hibiki_common::usecases::transfer::{self, ImportFile};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiQuery, parse_json};
use crate::routes::Answer;
use crate::state::AppState;

/// Everything of the person's as JSON: settings, the lists they own and every reminder in
/// them, archived too (no secrets). Saved as a file by browsers.
#[utoipa::path(get, path = "/api/export", operation_id = "export", tag = "data", responses((status = 200, body = ExportDocument)))]
pub async fn export(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Response> {
    let now = state.clock.now();
    let doc = transfer::export(&state.store, &auth.user.id, now).await?;
    let mut response = Answer(doc).into_response();
    let name = format!("attachment; filename=\"hibiki-export-{}.json\"", now.strftime("%Y-%m-%d"));
    if let Ok(value) = HeaderValue::from_str(&name) {
        response.headers_mut().insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// Check and report only: nothing is saved.
    #[serde(default)]
    pub dry_run: bool,
}

/// Bring reminders in: Hibiki's export (`application/json`) or an iCalendar file
/// (`text/calendar`: VEVENT and VTODO with RRULE, EXDATE, VALARM), up to 1 MiB. Reports each
/// item imported, and each skipped with why (`past`, `unsupported_rule`, `limit`, `invalid`).
#[utoipa::path(post, path = "/api/import", operation_id = "import", tag = "data", params(ImportQuery),
    request_body(content = String, description = "Hibiki's export as application/json, or text/calendar", content_type = "text/calendar"),
    responses((status = 200, body = ImportReport), (status = 400, description = "INVALID_JSON, VALIDATION_FAILED (not an export or iCalendar)"),
        (status = 413, description = "over 1 MiB"), (status = 415)))]
pub async fn import(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ImportQuery>,
    auth: AuthUser,
    req: Request,
) -> ApiResult<Answer<ImportReport>> {
    let kind = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<mime::Mime>().ok())
        .map(|m| (m.type_().as_str().to_owned(), m.subtype().as_str().to_owned(), m.suffix().map(|s| s.as_str().to_owned())));
    let is_json = kind.as_ref().is_some_and(|(t, s, suffix)| t == "application" && (s == "json" || suffix.as_deref() == Some("json")));
    let is_calendar = kind.as_ref().is_some_and(|(t, s, _)| t == "text" && s == "calendar");
    if !is_json && !is_calendar {
        return Err(ApiError::UnsupportedMediaType);
    }
    // This route's own limit: the API's 64 KiB does not fit a calendar's history.
    let body = axum::body::to_bytes(Body::new(req.into_body()), MAX_IMPORT_BYTES).await.map_err(|_| ApiError::ImportTooLarge)?;
    let file = if is_json {
        let doc: ExportDocument = parse_json(&body)?;
        if doc.version != hibiki_common::domain::transfer::EXPORT_VERSION {
            return Err(ApiError::field("version", FieldCode::InvalidChoice.because("an export of version 1")));
        }
        ImportFile::Export(Box::new(doc))
    } else {
        let text = String::from_utf8(body.to_vec())
            .map_err(|_| ApiError::field("body", FieldCode::InvalidCharacters.because("not UTF-8 text")))?;
        ImportFile::Calendar(text)
    };
    let report = transfer::import(&state.store, &auth.user.id, file, q.dry_run, state.clock.now()).await?;
    metrics::counter!(hibiki_common::metric_names::IMPORTS_TOTAL, "dry_run" => if q.dry_run { "true" } else { "false" }).increment(1);
    Ok(Answer(report))
}
