//! Serving the built web app: cache headers and the SPA fallback.

use crate::helpers::{Backend, Options, TestApp};

#[tokio::test]
async fn hashed_assets_are_immutable_pages_revalidate_and_unknown_paths_are_404() {
    let Some(app) = TestApp::spawn(Backend::Sqlite, Options::default()).await else { return };
    let web = &app.config.web_dir;
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>Hibiki</title>").unwrap();
    std::fs::write(web.join("sw.js"), "self.addEventListener('push', () => {});").unwrap();
    std::fs::write(web.join("assets/index-3f9a1c.js"), "console.log(1)").unwrap();

    let get = |path: &str| app.client.get(app.url(path)).send();
    let cache = |r: &reqwest::Response| r.headers().get("cache-control").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();

    let asset = get("/assets/index-3f9a1c.js").await.unwrap();
    assert_eq!(asset.status(), 200);
    assert_eq!(cache(&asset), "public, max-age=31536000, immutable");

    for path in ["/sw.js", "/", "/index.html"] {
        let r = get(path).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(cache(&r), "no-cache", "{path}");
    }
    for path in ["/reminders", "/en/reminders", "/en", "/auth/callback", "/admin/dashboard", "/en/status"] {
        let r = get(path).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(cache(&r), "no-cache", "{path}");
        assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        assert!(r.text().await.unwrap().contains("<title>Hibiki</title>"), "{path} draws the app");
    }
    // Not an app route: the app's not-found page, with a 404 status that crawlers understand.
    for path in ["/no-such-page", "/en/no-such-page", "/wp-login.php"] {
        let r = get(path).await.unwrap();
        assert_eq!(r.status(), 404, "{path}");
        assert_eq!(cache(&r), "no-cache", "{path}");
        assert!(r.text().await.unwrap().contains("<title>Hibiki</title>"), "{path} draws the not-found page");
    }
    let missing_asset = get("/assets/gone-123.js").await.unwrap();
    assert_eq!(missing_asset.status(), 404);
    assert_eq!(cache(&missing_asset), "no-cache", "a missing asset must not be cached for a year");

    // Text goes compressed to browsers that accept it (the JavaScript is most of a first visit).
    let big = format!("export const x = {:?};", "abc ".repeat(2000));
    std::fs::write(web.join("assets/big-1a2b.js"), &big).unwrap();
    let raw = &app.client; // (reqwest here has no decompression: it sees the bytes as sent)
    for encoding in ["gzip", "br"] {
        let r = raw.get(app.url("/assets/big-1a2b.js")).header("accept-encoding", encoding).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-encoding"], encoding);
        assert_eq!(cache(&r), "public, max-age=31536000, immutable");
        assert!(r.bytes().await.unwrap().len() < big.len() / 10, "{encoding} compresses");
    }
    let plain = raw.get(app.url("/assets/big-1a2b.js")).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.bytes().await.unwrap().len(), big.len());

    let head = app.client.head(app.url("/reminders")).send().await.unwrap();
    assert_eq!(head.status(), 200);
    app.stop().await;
}
