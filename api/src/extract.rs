//! Extractors whose rejections speak the contract's envelope instead of axum's plain text.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use hibiki_common::error::FieldCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON body: 415 without a JSON content type, 413 over the body limit, 400
/// `INVALID_JSON` for bad syntax and 400 `VALIDATION_FAILED` (naming the field) for wrong
/// types or missing fields.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<mime::Mime>().ok())
            .is_some_and(|m| m.type_() == mime::APPLICATION && (m.subtype() == mime::JSON || m.suffix() == Some(mime::JSON)));
        if !is_json {
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge
            } else {
                ApiError::InvalidJson(rejection.body_text())
            }
        })?;
        parse_json(&bytes).map(ApiJson)
    }
}

pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // Syntax first (serde_json also refuses trailing data and nesting deeper than 128), so
    // malformed bodies are told apart from well-formed ones with wrong fields.
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| ApiError::InvalidJson(e.to_string()))?;
    // Every body of the contract is an object; serde would otherwise read an array as the
    // struct's fields by position.
    if !value.is_object() {
        return Err(ApiError::field("body", FieldCode::InvalidFormat.because("expected a JSON object")));
    }
    // No text the database cannot store: PostgreSQL refuses NUL in text, SQLite cuts at it.
    if let Some(path) = nul_at(&value, "") {
        return Err(ApiError::field(
            if path.is_empty() { "body" } else { &path },
            FieldCode::InvalidCharacters.because("must not contain NUL characters"),
        ));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = e.inner().to_string();
        // A missing field is reported at the object that lacks it: name the field itself.
        let missing = message.strip_prefix("missing field `").and_then(|rest| rest.split('`').next()).map(str::to_owned);
        let field = match (path.as_str(), missing) {
            ("." | "", Some(name)) => name,
            (_, Some(name)) => format!("{path}.{name}"),
            ("." | "", None) => "body".to_owned(),
            (_, None) => path,
        };
        ApiError::field(&field, serde_problem(message))
    })
}

/// serde's message as a field problem: a missing field is `required`, a value not among a
/// field's choices `invalid_choice`, anything else of the wrong type or shape `invalid_format`.
fn serde_problem(message: String) -> hibiki_common::error::FieldProblem {
    let code = if message.starts_with("missing field") {
        FieldCode::Required
    } else if message.starts_with("unknown variant") {
        FieldCode::InvalidChoice
    } else {
        FieldCode::InvalidFormat
    };
    code.because(message)
}

/// The path of the first string (or key) holding a NUL character.
fn nul_at(value: &serde_json::Value, path: &str) -> Option<String> {
    match value {
        serde_json::Value::String(s) if s.contains('\0') => Some(path.to_owned()),
        serde_json::Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| nul_at(v, &format!("{path}[{i}]"))),
        serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| {
            let here = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
            if k.contains('\0') { Some(path.to_owned()) } else { nul_at(v, &here) }
        }),
        _ => None,
    }
}

/// A request whose `?action=` chose what it is (`POST /api/reminders`, `POST
/// /api/notifications`): each action reads the session it needs (required, optional or none)
/// and its JSON body from it.
pub struct ActionRequest {
    parts: Parts,
    body: axum::body::Body,
}

impl ActionRequest {
    pub fn new(req: Request) -> ActionRequest {
        let (parts, body) = req.into_parts();
        ActionRequest { parts, body }
    }

    /// The signed-in user; 401 without one.
    pub async fn user(&mut self, state: &crate::state::AppState) -> Result<crate::auth::AuthUser, ApiError> {
        crate::auth::AuthUser::from_request_parts(&mut self.parts, state).await
    }

    /// The signed-in user, if any (the push's action token can stand in for a session).
    pub async fn optional_user(&mut self, state: &crate::state::AppState) -> Option<crate::auth::AuthUser> {
        self.user(state).await.ok()
    }

    /// The JSON body, with the same answers to bad bodies as [`ApiJson`].
    pub async fn json<T: DeserializeOwned>(self, state: &crate::state::AppState) -> Result<T, ApiError> {
        let ApiJson(value) = ApiJson::<T>::from_request(Request::from_parts(self.parts, self.body), state).await?;
        Ok(value)
    }
}

/// Query parameters, with a 400 `VALIDATION_FAILED` for values of the wrong type.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| ApiQuery(q.0))
            .map_err(|e| ApiError::field("query", FieldCode::InvalidFormat.because(e.body_text())))
    }
}

/// The TCP peer's address, when the server knows it (it does when serving; a router driven
/// in a test without a socket does not).
pub struct Peer(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Peer(parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip())))
    }
}

/// A path's parameters: one that does not parse (an id that is not one of ours) names nothing,
/// so it is a 404 like a missing row rather than a 400.
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    S: Send + Sync,
    T: DeserializeOwned + Send,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state).await.map(|p| ApiPath(p.0)).map_err(|_| ApiError::NotFound)
    }
}
