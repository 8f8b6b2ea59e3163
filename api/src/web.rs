//! The built web app (Vite output): files as they are, and `index.html` for every other path
//! so the client-side router can draw the page (including its not-found page).

use std::path::Path;

use tower_http::services::{ServeDir, ServeFile};

pub fn service(web_dir: &Path) -> ServeDir<ServeFile> {
    ServeDir::new(web_dir).append_index_html_on_directories(true).fallback(ServeFile::new(web_dir.join("index.html")))
}
