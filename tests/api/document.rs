//! The router and the OpenAPI document are made from one route list: each documented path
//! answers exactly the methods the document names for it (no route is served under a method
//! the document does not name, none the document names is missing).

use crate::both_backends;
use crate::helpers::{TestApp, json, unique_email};

both_backends!(each_path_answers_the_methods_the_document_names);

/// The path with each `{param}` filled in.
fn filled(template: &str) -> String {
    template.split('/').map(|segment| if segment.starts_with('{') { "x" } else { segment }).collect::<Vec<_>>().join("/")
}

async fn each_path_answers_the_methods_the_document_names(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let document = json(app.get("/api/openapi.json", None).await).await;
    let paths = document["paths"].as_object().expect("paths");
    assert!(paths.len() >= 25, "{} paths", paths.len());
    for (template, item) in paths {
        let url = app.url(&filled(template));
        for method in ["GET", "POST", "PUT", "DELETE", "PATCH"] {
            let documented = item.get(method.to_ascii_lowercase()).is_some();
            let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
            // The 405 comes from routing, before any handler: it does not matter that the
            // token ends on the way (POST /api/auth/logout).
            let r = app.client.request(method.clone(), &url).bearer_auth(&token).send().await.unwrap();
            assert_eq!(r.status() == 405, !documented, "{method} {template}: {}", r.status());
        }
    }
}
