//! The built web app (Vite output). Hashed files under `/assets/` are cached for good; every
//! other file (`sw.js`, `index.html`, the manifest, icons) is revalidated on each use, so a
//! deploy reaches users at once. Paths that are not files get `index.html` so the client-side
//! router draws the page: 200 for the app's routes, 404 (the app's not-found page) for the rest.

use std::path::PathBuf;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// The client-side routes of `web/src/app/router.tsx`, each also under `/en`.
const APP_ROUTES: &[&str] = &[
    "",
    "login",
    "auth/callback",
    "invite",
    "reminders",
    "settings",
    "settings/delete-account",
    "faq",
    "guide",
    "privacy",
    "terms",
    "commercial-transaction-act",
    "admin",
    "admin/dashboard",
    "admin/users",
    "test-email",
    "status",
    // A trigger link's page (its secret is the last segment).
    "t/:secret",
    // The installed app's share target: quick add filled with what was shared.
    "share",
];

/// Whether `path` is one of the app's pages (in either language); a route's `:name` segment
/// stands for any one non-empty segment.
pub fn is_app_route(path: &str) -> bool {
    let path = path.strip_prefix("/en").filter(|rest| rest.is_empty() || rest.starts_with('/')).unwrap_or(path);
    let path = path.trim_matches('/');
    APP_ROUTES.iter().any(|route| {
        let (mut want, mut have) = (route.split('/'), path.split('/'));
        loop {
            match (want.next(), have.next()) {
                (None, None) => return true,
                (Some(w), Some(h)) if w == h || (w.starts_with(':') && !h.is_empty()) => continue,
                _ => return false,
            }
        }
    })
}

/// The app's page for a path the API also answers on other methods (a trigger link: `POST`
/// acts, `GET` opens the page).
pub(crate) async fn page(axum::extract::State(state): axum::extract::State<crate::state::AppState>, req: Request) -> Response {
    serve(State(WebFiles::new(state.config.web_dir.clone())), req).await
}

fn cache_control(path: &str, status: StatusCode) -> &'static str {
    if status == StatusCode::OK && path.starts_with("/assets/") { IMMUTABLE } else { REVALIDATE }
}

#[derive(Clone)]
pub struct WebFiles {
    dir: PathBuf,
}

impl WebFiles {
    pub fn new(dir: PathBuf) -> WebFiles {
        WebFiles { dir }
    }
}

/// The web app's files, compressed (gzip or brotli, as the browser accepts) when they are text.
pub fn service(dir: PathBuf) -> axum::routing::MethodRouter {
    axum::routing::any(serve).with_state(WebFiles::new(dir)).layer(CompressionLayer::new())
}

async fn serve(State(web): State<WebFiles>, req: Request) -> Response {
    let path = req.uri().path().to_owned();
    let method = req.method().clone();
    let mut response = match ServeDir::new(&web.dir).oneshot(req).await {
        Ok(r) => r.map(Body::new),
        Err(never) => match never {},
    };
    if response.status() == StatusCode::NOT_FOUND && (method == Method::GET || method == Method::HEAD) {
        let status = if is_app_route(&path) { StatusCode::OK } else { StatusCode::NOT_FOUND };
        // (hyper leaves the body out of a HEAD answer and keeps its length)
        response = match tokio::fs::read(web.dir.join("index.html")).await {
            Ok(html) => (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
            Err(_) => (StatusCode::NOT_FOUND, "The web app is not built (cd web && npm run build).").into_response(),
        };
    }
    let cache = cache_control(&path, response.status());
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_routes_in_both_languages_and_nothing_else() {
        for path in [
            "/",
            "/en",
            "/en/",
            "/login",
            "/en/login",
            "/reminders/",
            "/en/admin/users",
            "/status",
            "/auth/callback",
            "/invite",
            "/en/invite",
            "/t/abc",
            "/en/t/abc",
        ] {
            assert!(is_app_route(path), "{path}");
        }
        for path in [
            "/nope",
            "/en/nope",
            "/english",
            "/enlogin",
            "/login/extra",
            "/admin/secret",
            "/en/en/login",
            "/wp-admin.php",
            "/t",
            "/t/",
            "/t/a/b",
        ] {
            assert!(!is_app_route(path), "{path}");
        }
    }

    #[test]
    fn hashed_assets_are_immutable_and_the_rest_revalidates() {
        assert_eq!(cache_control("/assets/index-3f9a1c.js", StatusCode::OK), IMMUTABLE);
        assert_eq!(cache_control("/assets/missing.js", StatusCode::NOT_FOUND), REVALIDATE);
        for path in ["/sw.js", "/index.html", "/", "/manifest.webmanifest", "/reminders"] {
            assert_eq!(cache_control(path, StatusCode::OK), REVALIDATE, "{path}");
        }
    }

    /// The server's list and the web app's router must agree, or a page would answer 404.
    #[test]
    fn the_route_list_matches_the_web_apps_router() {
        let routes =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/app/router.tsx")).expect("web/src/app/router.tsx");
        let declared: Vec<&str> = routes.split("path: '").skip(1).filter_map(|rest| rest.split('\'').next()).collect();
        assert!(declared.len() >= 10, "{declared:?}");
        for path in &declared {
            assert!(APP_ROUTES.contains(path), "{path} is routed by the web app but unknown to the server");
        }
        for path in APP_ROUTES.iter().filter(|p| !p.is_empty()) {
            assert!(declared.contains(path), "{path} is known to the server but not routed by the web app");
        }
    }
}
