//! The published OpenAPI document (`GET /api/openapi.json`), made from the route list the
//! server serves ([`crate::routes`]): each handler's `#[utoipa::path]` describes its body,
//! answer and access, and [`Contract`] then adds what every route shares, once: the
//! `{success, data}` envelope around each JSON answer, the error envelope of the failures any
//! route can give (400, 401, 403, 413, 415, 429, 500), and the bearer and cookie security
//! schemes (a signed-in route's requirement unless the handler names its own).

use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::SchemaType;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ContentBuilder, ObjectBuilder, RefOr, ResponseBuilder, Schema, Type};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;

#[derive(OpenApi)]
#[openapi(
    info(title = "Hibiki API", description = "Reminders you hear. Every answer is an envelope: {success: true, data} or {success: false, error: {code, message, fields?, retry_after?}}."),
    // What no body or answer names but the contract publishes: the closed set of field codes,
    // the push payload the workers send, and the list's filter (a query parameter's type).
    components(schemas(
        crate::error::FieldDetail,
        hibiki_common::error::FieldCode,
        hibiki_common::domain::push_message::PushMessage,
        hibiki_common::domain::reminder::StatusFilter
    )),
    tags((name = "auth"), (name = "reminders"), (name = "lists"), (name = "account"), (name = "admin"), (name = "notifications"), (name = "health"), (name = "calendar"), (name = "channels"), (name = "tokens"), (name = "triggers"), (name = "data"))
)]
pub struct ApiDoc;

/// The document of the routes [`crate::router`] serves.
pub fn document() -> utoipa::openapi::OpenApi {
    let crate::Routes { sign_in, api, health } = crate::routes();
    let mut document = OpenApiRouter::with_openapi(ApiDoc::openapi()).merge(sign_in).merge(api).merge(health).into_openapi();
    Contract.modify(&mut document);
    document
}

pub struct Contract;

impl Modify for Contract {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("bearer", SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()));
        components.add_security_scheme("session_cookie", SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new("hibiki_session"))));
        components.schemas.insert("ErrorEnvelope".into(), error_envelope());
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                ("get", item.get.as_mut()),
                ("head", item.head.as_mut()),
                ("post", item.post.as_mut()),
                ("put", item.put.as_mut()),
                ("delete", item.delete.as_mut()),
            ];
            for (method, op) in operations {
                let Some(op) = op else { continue };
                // A handler names its access only when it differs from signed in: `security(())`
                // for anyone, or with `()` added where a session is optional.
                let security = op.security.get_or_insert_with(|| {
                    vec![
                        SecurityRequirement::new("bearer", Vec::<String>::new()),
                        SecurityRequirement::new("session_cookie", Vec::<String>::new()),
                    ]
                });
                let public = security.iter().all(|r| *r == SecurityRequirement::default());
                envelope_answers(op);
                optional_body(op);
                add_errors(op, method, public);
            }
        }
    }
}

/// `{success: true, data: <the handler's schema>}` for every JSON answer a handler describes
/// (a success, or the health check's 503; the errors' envelope is added by [`add_errors`]).
fn envelope_answers(op: &mut Operation) {
    for response in op.responses.responses.values_mut() {
        let RefOr::T(response) = response else { continue };
        // Not the calendar feed's text/calendar.
        let Some(content) = response.content.get_mut("application/json") else { continue };
        let Some(data) = content.schema.take() else { continue };
        let envelope = ObjectBuilder::new()
            .property("success", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([true])))
            .required("success")
            .property("data", data)
            .required("data")
            .build();
        content.schema = Some(RefOr::T(Schema::Object(envelope)));
    }
}

/// A body a handler marks optional (`Option<T>`: `POST /api/notifications?action=test` has
/// none) is `oneOf [null, T]` to utoipa; no body of the contract is `null` (each is an object,
/// or absent), so it is `T`, not required.
fn optional_body(op: &mut Operation) {
    let Some(body) = op.request_body.as_mut() else { return };
    let is_null = |s: &RefOr<Schema>| matches!(s, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null));
    for content in body.content.values_mut() {
        let Some(RefOr::T(Schema::OneOf(one_of))) = &content.schema else { continue };
        if let [a, b] = one_of.items.as_slice()
            && is_null(a) != is_null(b)
        {
            let body = if is_null(a) { b } else { a };
            content.schema = Some(body.clone());
        }
    }
}

/// The failures any route can give, in the error envelope, where the handler did not say.
fn add_errors(op: &mut Operation, method: &str, public: bool) {
    let mut errors =
        vec![("400", "VALIDATION_FAILED or INVALID_JSON: the input is wrong"), ("429", "RATE_LIMITED"), ("500", "INTERNAL_ERROR")];
    if !public {
        errors.push(("401", "AUTHENTICATION_REQUIRED"));
    }
    if method != "get" && method != "head" {
        errors.push(("403", "CSRF_REJECTED: a cookie-authenticated request from another site"));
        errors.push(("413", "PAYLOAD_TOO_LARGE: over 64 KiB"));
        errors.push(("415", "UNSUPPORTED_MEDIA_TYPE: not JSON"));
    }
    if op.parameters.as_ref().is_some_and(|p| p.iter().any(|p| p.parameter_in == utoipa::openapi::path::ParameterIn::Path)) {
        errors.push(("404", "NOT_FOUND"));
    }
    for (status, description) in errors {
        let response = ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new().schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name("ErrorEnvelope")))).build(),
            )
            .build();
        match op.responses.responses.get_mut(status) {
            // The handler named the codes; give it the envelope.
            Some(RefOr::T(existing)) if existing.content.is_empty() => {
                existing.content = response.content;
            }
            Some(_) => {}
            None => {
                op.responses.responses.insert(status.to_owned(), RefOr::T(response));
            }
        }
    }
}

fn error_envelope() -> RefOr<Schema> {
    let string = || ObjectBuilder::new().schema_type(Type::String);
    let error = ObjectBuilder::new()
        .property("code", string())
        .required("code")
        .property("message", string())
        .required("message")
        .property("fields", ObjectBuilder::new().schema_type(Type::Object).additional_properties(Some(string())))
        .property(
            "details",
            utoipa::openapi::schema::ArrayBuilder::new().items(RefOr::<Schema>::Ref(utoipa::openapi::Ref::from_schema_name("FieldDetail"))),
        )
        .property("retry_after", ObjectBuilder::new().schema_type(Type::Integer));
    RefOr::T(Schema::Object(
        ObjectBuilder::new()
            .property("success", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([false])))
            .required("success")
            .property("error", error)
            .required("error")
            .property("error_type", string())
            .build(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The web app's API types are generated from this document (`web/src/lib/openapi.json`,
    /// then `npm run api-types`): the committed copy must be the server's, so the types cannot
    /// drift from the server. `HIBIKI_UPDATE_OPENAPI=1 cargo test -p hibiki-api openapi` writes it.
    #[test]
    fn the_web_apps_copy_of_the_document_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/lib/openapi.json");
        let current = format!("{}\n", serde_json::to_string_pretty(&document()).unwrap());
        if std::env::var("HIBIKI_UPDATE_OPENAPI").is_ok_and(|v| v == "1") {
            std::fs::write(path, &current).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == current,
            "web/src/lib/openapi.json is stale: run HIBIKI_UPDATE_OPENAPI=1 cargo test -p hibiki-api openapi, then npm run api-types in web/"
        );
    }
}
