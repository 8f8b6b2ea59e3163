//! A readable name for a push subscription ("iPhone · Safari", "Windows · Chrome"), from the
//! `device_info` the app sends when it subscribes. A label, not a fingerprint: only the
//! operating system family and the browser family are read.

/// The operating system family, from the user agent (and the platform hint).
pub fn platform(user_agent: &str, platform_hint: &str) -> &'static str {
    let ua = user_agent;
    // iPadOS Safari says "Macintosh" unless it is asked for the mobile site; the app's
    // platform hint ("iPad", "MacIntel" with touch is not visible here) settles some of it.
    if ua.contains("iPhone") || platform_hint == "iPhone" {
        "iPhone"
    } else if ua.contains("iPad") || platform_hint == "iPad" {
        "iPad"
    } else if ua.contains("Android") {
        "Android"
    } else if ua.contains("CrOS") {
        "ChromeOS"
    } else if ua.contains("Windows") {
        "Windows"
    } else if ua.contains("Macintosh") || ua.contains("Mac OS X") {
        "Mac"
    } else if ua.contains("Linux") || ua.contains("X11") {
        "Linux"
    } else {
        ""
    }
}

/// The browser family. Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari".
pub fn browser(user_agent: &str) -> &'static str {
    let ua = user_agent;
    if ua.contains("Edg/") || ua.contains("EdgA/") || ua.contains("EdgiOS/") {
        "Edge"
    } else if ua.contains("OPR/") || ua.contains("Opera") {
        "Opera"
    } else if ua.contains("SamsungBrowser/") {
        "Samsung Internet"
    } else if ua.contains("Firefox/") || ua.contains("FxiOS/") {
        "Firefox"
    } else if ua.contains("CriOS/") || ua.contains("Chrome/") || ua.contains("Chromium/") {
        "Chrome"
    } else if ua.contains("Safari/") || ua.contains("AppleWebKit/") {
        "Safari"
    } else {
        ""
    }
}

/// The user agent and platform hint of a subscription's `device_info` (empty when absent).
fn agent_and_hint(device_info: &serde_json::Value) -> (&str, &str) {
    let text = |key| device_info.get(key).and_then(|v: &serde_json::Value| v.as_str()).unwrap_or("");
    (text("user_agent"), text("platform"))
}

/// The operating system family of a subscription's `device_info`.
pub fn platform_of(device_info: &serde_json::Value) -> &'static str {
    let (ua, hint) = agent_and_hint(device_info);
    platform(ua, hint)
}

/// "iPhone · Safari"; whichever part is known; empty when neither is.
pub fn label(device_info: &serde_json::Value) -> String {
    let (ua, hint) = agent_and_hint(device_info);
    join(platform(ua, hint), browser(ua))
}

/// The same label from a request's `User-Agent` alone (a session's device).
pub fn label_of_agent(user_agent: &str) -> String {
    join(platform(user_agent, ""), browser(user_agent))
}

fn join(platform: &str, browser: &str) -> String {
    [platform, browser].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(ua: &str, platform: &str) -> serde_json::Value {
        serde_json::json!({ "user_agent": ua, "platform": platform, "language": "ja", "timezone": "Asia/Tokyo" })
    }

    #[test]
    fn labels_of_common_browsers() {
        let cases = [
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1",
                "iPhone",
                "iPhone · Safari",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Win32",
                "Windows · Chrome",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                "Win32",
                "Windows · Edge",
            ),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0", "MacIntel", "Mac · Firefox"),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
                "Linux armv8l",
                "Android · Chrome",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
                "Linux",
                "Android · Samsung Internet",
            ),
            ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Linux x86_64", "Linux · Firefox"),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1",
                "iPad",
                "iPad · Chrome",
            ),
            (
                "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "",
                "ChromeOS · Chrome",
            ),
        ];
        for (ua, platform, want) in cases {
            assert_eq!(label(&info(ua, platform)), want, "{ua}");
        }
    }

    #[test]
    fn unknown_or_missing_info_gives_what_is_known() {
        assert_eq!(label(&serde_json::json!({})), "");
        assert_eq!(label(&serde_json::Value::Null), "");
        assert_eq!(label(&info("curl/8.0", "")), "");
        assert_eq!(label(&info("", "iPhone")), "iPhone");
    }
}
