//! The API's one error type and its mapping to the contract's JSON envelope:
//! `{"success": false, "error": {"code", "message", fields?, details?, retry_after?}, error_type?}`.

use std::collections::BTreeMap;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hibiki_common::error::{FieldCode, FieldProblem};
use hibiki_common::usecases::signin::SignInError;
use serde::Serialize;
use serde_json::json;

/// One entry of a validation failure's `error.details`: the field, its code from the closed
/// set [`FieldCode`], and the numbers the code speaks of.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct FieldDetail {
    pub field: String,
    pub code: FieldCode,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<std::collections::HashMap<String, i64>>)]
    pub params: Option<BTreeMap<&'static str, i64>>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("validation failed")]
    Validation(BTreeMap<String, FieldProblem>),
    #[error("the request body is not valid JSON: {0}")]
    InvalidJson(String),
    #[error("the request body must be application/json")]
    UnsupportedMediaType,
    #[error("the request body is larger than 64 KiB")]
    PayloadTooLarge,
    #[error("the file is larger than 1 MiB")]
    ImportTooLarge,
    #[error("not found")]
    NotFound,
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("authentication required")]
    Unauthorized,
    #[error("forbidden")]
    Forbidden,
    #[error("too many requests, retry in {retry_after} s")]
    RateLimited { retry_after: i64 },
    #[error("at most {0} active reminders")]
    ReminderLimit(usize),
    #[error("at most {0} lists of your own")]
    ListLimit(usize),
    #[error("the default list cannot be deleted")]
    DefaultList,
    #[error("A list has at most {0} people, pending invitations included.")]
    MemberLimit(usize),
    #[error("This address is already in the list.")]
    AlreadyMember,
    #[error("This invitation is not valid any more: it was used, cancelled or has expired.")]
    InviteInvalid,
    #[error("This invitation is for another address. Sign in with the address it was sent to.")]
    InviteWrongAccount,
    #[error(transparent)]
    SignIn(SignInError),
    #[error("the push endpoint was refused: {0}")]
    EndpointRejected(String),
    #[error("This push endpoint belongs to another account.")]
    EndpointInUse,
    #[error("At most {0} devices can receive notifications. Remove one in Settings first.")]
    DeviceLimit(i64),
    #[error("At most {0} channels. Remove one first.")]
    ChannelLimit(i64),
    #[error("At most {0} API tokens. Delete one first.")]
    TokenLimit(i64),
    #[error("At most {0} trigger links per reminder. Delete one first.")]
    TriggerLimit(i64),
    #[error("This token's scopes do not allow this request.")]
    InsufficientScope,
    #[error("This channel is not enabled on this server.")]
    ChannelUnavailable,
    #[error("Cross-site request refused.")]
    CsrfRejected,
    #[error("Please enable notifications first")]
    SubscriptionNotFound,
    #[error("temporarily unavailable: {0}")]
    Unavailable(&'static str),
    /// The database or stored data failed; the cause is kept and logged, never shown.
    #[error("storage failed: {0}")]
    Store(#[source] hibiki_common::Error),
    #[error("a handler panicked")]
    Panicked,
}

impl ApiError {
    pub fn field(field: &str, problem: FieldProblem) -> ApiError {
        ApiError::Validation(BTreeMap::from([(field.to_owned(), problem)]))
    }
}

impl From<hibiki_common::Error> for ApiError {
    fn from(e: hibiki_common::Error) -> Self {
        use hibiki_common::Error as E;
        match e {
            E::Validation(fields) => ApiError::Validation(fields),
            E::NotFound => ApiError::NotFound,
            E::ReminderLimit(n) => ApiError::ReminderLimit(n),
            E::ListLimit(n) => ApiError::ListLimit(n),
            E::DefaultList => ApiError::DefaultList,
            E::MemberLimit(n) => ApiError::MemberLimit(n),
            E::AlreadyMember => ApiError::AlreadyMember,
            E::InviteInvalid => ApiError::InviteInvalid,
            E::InviteWrongAccount => ApiError::InviteWrongAccount,
            E::Forbidden => ApiError::Forbidden,
            E::SubscriptionNotFound => ApiError::SubscriptionNotFound,
            E::EndpointInUse => ApiError::EndpointInUse,
            E::DeviceLimit(n) => ApiError::DeviceLimit(n),
            E::RateLimited(retry_after) => ApiError::RateLimited { retry_after },
            E::ChannelLimit(n) => ApiError::ChannelLimit(n),
            E::ChannelUnavailable => ApiError::ChannelUnavailable,
            E::TokenLimit(n) => ApiError::TokenLimit(n),
            E::TriggerLimit(n) => ApiError::TriggerLimit(n),
            E::EndpointRejected(why) => ApiError::EndpointRejected(why),
            E::Unavailable(what) => ApiError::Unavailable(what),
            other => ApiError::Store(other),
        }
    }
}

impl From<SignInError> for ApiError {
    fn from(e: SignInError) -> Self {
        match e {
            SignInError::Store(inner) => inner.into(),
            other => ApiError::SignIn(other),
        }
    }
}

impl ApiError {
    fn parts(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::Validation(_) => (StatusCode::BAD_REQUEST, "VALIDATION_FAILED"),
            ApiError::InvalidJson(_) => (StatusCode::BAD_REQUEST, "INVALID_JSON"),
            ApiError::UnsupportedMediaType => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE"),
            ApiError::PayloadTooLarge | ApiError::ImportTooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE"),
            ApiError::NotFound => (StatusCode::NOT_FOUND, "NOT_FOUND"),
            ApiError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "AUTHENTICATION_REQUIRED"),
            ApiError::Forbidden => (StatusCode::FORBIDDEN, "FORBIDDEN"),
            ApiError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED"),
            ApiError::ReminderLimit(_) => (StatusCode::CONFLICT, "REMINDER_LIMIT"),
            ApiError::ListLimit(_) => (StatusCode::CONFLICT, "LIST_LIMIT"),
            ApiError::DefaultList => (StatusCode::BAD_REQUEST, "DEFAULT_LIST"),
            ApiError::MemberLimit(_) => (StatusCode::CONFLICT, "MEMBER_LIMIT"),
            ApiError::AlreadyMember => (StatusCode::CONFLICT, "ALREADY_MEMBER"),
            ApiError::InviteInvalid => (StatusCode::BAD_REQUEST, "INVITE_INVALID"),
            ApiError::InviteWrongAccount => (StatusCode::FORBIDDEN, "INVITE_WRONG_ACCOUNT"),
            ApiError::SignIn(e) => match e {
                SignInError::EmailInvalid(_) => (StatusCode::BAD_REQUEST, "EMAIL_INVALID"),
                SignInError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED"),
                SignInError::OtpInvalid | SignInError::NoCodePending => (StatusCode::BAD_REQUEST, "OTP_INVALID"),
                SignInError::OtpReplaced => (StatusCode::BAD_REQUEST, "OTP_REPLACED"),
                SignInError::CodeBurned => (StatusCode::TOO_MANY_REQUESTS, "OTP_ATTEMPTS_EXCEEDED"),
                SignInError::OtpExpired => (StatusCode::BAD_REQUEST, "OTP_EXPIRED"),
                SignInError::AttemptsExceeded { .. } => (StatusCode::TOO_MANY_REQUESTS, "OTP_ATTEMPTS_EXCEEDED"),
                SignInError::LinkInvalid => (StatusCode::BAD_REQUEST, "LINK_INVALID"),
                SignInError::Store(_) => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL_ERROR"),
            },
            ApiError::EndpointRejected(_) => (StatusCode::BAD_REQUEST, "ENDPOINT_REJECTED"),
            ApiError::EndpointInUse => (StatusCode::CONFLICT, "ENDPOINT_IN_USE"),
            ApiError::DeviceLimit(_) => (StatusCode::CONFLICT, "DEVICE_LIMIT"),
            ApiError::ChannelLimit(_) => (StatusCode::CONFLICT, "CHANNEL_LIMIT"),
            ApiError::ChannelUnavailable => (StatusCode::BAD_REQUEST, "CHANNEL_UNAVAILABLE"),
            ApiError::TokenLimit(_) => (StatusCode::CONFLICT, "TOKEN_LIMIT"),
            ApiError::TriggerLimit(_) => (StatusCode::CONFLICT, "TRIGGER_LIMIT"),
            ApiError::InsufficientScope => (StatusCode::FORBIDDEN, "INSUFFICIENT_SCOPE"),
            ApiError::CsrfRejected => (StatusCode::FORBIDDEN, "CSRF_REJECTED"),
            ApiError::SubscriptionNotFound => (StatusCode::NOT_FOUND, "SUBSCRIPTION_NOT_FOUND"),
            ApiError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "SERVICE_UNAVAILABLE"),
            ApiError::Store(_) | ApiError::Panicked => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL_ERROR"),
        }
    }

    fn retry_after(&self) -> Option<i64> {
        match self {
            ApiError::RateLimited { retry_after } => Some(*retry_after),
            ApiError::SignIn(SignInError::RateLimited { retry_after_secs }) => Some(*retry_after_secs),
            ApiError::SignIn(SignInError::AttemptsExceeded { retry_after_secs }) => *retry_after_secs,
            _ => None,
        }
    }

    fn message(&self) -> String {
        match self {
            ApiError::Validation(_) => "Some fields are invalid.".into(),
            ApiError::RateLimited { .. } | ApiError::SignIn(SignInError::RateLimited { .. }) => {
                "Too many requests. Please try again later.".into()
            }
            ApiError::NotFound => "Not found.".into(),
            ApiError::Unauthorized => "Authentication required.".into(),
            ApiError::Forbidden => "You do not have access to this.".into(),
            // Never leak internals to clients; the log has them.
            ApiError::Store(_) | ApiError::Panicked => "Something went wrong on our side.".into(),
            other => other.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.parts();
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            let cause = std::error::Error::source(&self).and_then(std::error::Error::source).map(|c| c.to_string());
            tracing::error!(error = %self, cause, "internal error");
        }
        let mut error = json!({ "code": code, "message": self.message() });
        if let ApiError::Validation(fields) = &self {
            // `fields` {field: message} for people; `details` [{field, code, params}] for
            // programs, which translate by code.
            let messages: BTreeMap<&str, &str> = fields.iter().map(|(f, p)| (f.as_str(), p.message.as_str())).collect();
            error["fields"] = json!(messages);
            let details: Vec<FieldDetail> = fields
                .iter()
                .map(|(field, p)| FieldDetail {
                    field: field.clone(),
                    code: p.code,
                    params: (!p.params.is_empty()).then(|| p.params.clone()),
                })
                .collect();
            error["details"] = json!(details);
        }
        let retry_after = self.retry_after();
        if let Some(secs) = retry_after {
            error["retry_after"] = json!(secs);
        }
        let mut body = json!({ "success": false, "error": error });
        if status == StatusCode::UNAUTHORIZED {
            body["error_type"] = json!("AUTHENTICATION_REQUIRED");
        }
        let mut response = (status, axum::Json(body)).into_response();
        if let Some(secs) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
