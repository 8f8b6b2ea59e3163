//! Personal API tokens (decisions.md "Open to other tools"): named bearer tokens a person makes
//! for their own scripts, each limited to scopes. Which scopes a route needs is decided here,
//! once, from the route's template and method: a route no scope covers is never reached with
//! a token (sign-in, sessions, tokens, the account, admin, settings, devices, channels).

use std::collections::BTreeSet;

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::ids::ApiTokenId;
use crate::error::{FieldCode, FieldProblem};

/// What every token starts with: a leaked one is recognisable (secret scanners, logs).
pub const TOKEN_PREFIX: &str = "hbk_";
/// Tokens one person may hold.
pub const MAX_TOKENS: i64 = 20;
/// A token's name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// The longest expiry one may choose, in days.
pub const MAX_EXPIRY_DAYS: i64 = 365;

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
pub enum Scope {
    #[serde(rename = "reminders:read")]
    RemindersRead,
    #[serde(rename = "reminders:write")]
    RemindersWrite,
    #[serde(rename = "lists:read")]
    ListsRead,
    #[serde(rename = "lists:write")]
    ListsWrite,
}

impl Scope {
    pub const ALL: &'static [Scope] = &[Scope::RemindersRead, Scope::RemindersWrite, Scope::ListsRead, Scope::ListsWrite];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::RemindersRead => "reminders:read",
            Scope::RemindersWrite => "reminders:write",
            Scope::ListsRead => "lists:read",
            Scope::ListsWrite => "lists:write",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL.iter().copied().find(|s| s.as_str() == text)
    }
}

/// A token's scopes, as stored (space-separated) and sent (a list).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes(BTreeSet<Scope>);

impl Scopes {
    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    pub fn to_vec(&self) -> Vec<Scope> {
        self.0.iter().copied().collect()
    }

    pub fn stored(&self) -> String {
        self.0.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }

    /// Read back from a row: an unknown word (a scope a newer version dropped) grants nothing.
    pub fn from_stored(text: &str) -> Scopes {
        Scopes(text.split_whitespace().filter_map(Scope::parse).collect())
    }

    /// Whether these scopes let a token call `method` on the route `template` (the router's
    /// pattern, like `/api/reminders/{id}`).
    pub fn allow(&self, method: &str, template: &str) -> bool {
        required_scopes(method, template).is_some_and(|needed| needed.iter().all(|s| self.contains(*s)))
    }
}

impl FromIterator<Scope> for Scopes {
    fn from_iter<I: IntoIterator<Item = Scope>>(iter: I) -> Self {
        Scopes(iter.into_iter().collect())
    }
}

/// The scopes a token needs for a route; `None` for a route no token ever reaches.
pub fn required_scopes(method: &str, template: &str) -> Option<&'static [Scope]> {
    let reads = matches!(method, "GET" | "HEAD");
    let under = |base: &str| template == base || template.strip_prefix(base).is_some_and(|rest| rest.starts_with('/'));
    // The preview computes and stores nothing: a read, though it is a POST.
    if template == "/api/reminders/preview" {
        return Some(&[Scope::RemindersRead]);
    }
    if under("/api/reminders") {
        return Some(if reads { &[Scope::RemindersRead] } else { &[Scope::RemindersWrite] });
    }
    if under("/api/lists") {
        return Some(if reads { &[Scope::ListsRead] } else { &[Scope::ListsWrite] });
    }
    match (template, reads) {
        // Everything of the person's that a token can read, and bring back.
        ("/api/export", true) => Some(&[Scope::RemindersRead, Scope::ListsRead]),
        ("/api/import", false) => Some(&[Scope::RemindersWrite, Scope::ListsWrite]),
        _ => None,
    }
}

/// A token as listed (never the token itself).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ApiToken {
    #[schema(value_type = String)]
    pub id: ApiTokenId,
    pub name: String,
    pub scopes: Vec<Scope>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_used_at: Option<Timestamp>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
}

/// A token to make.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct NewApiToken {
    /// What it is for (1–100 characters).
    pub name: String,
    /// At least one.
    pub scopes: Vec<Scope>,
    /// It stops working after this many days (1–365); none: it works until deleted.
    #[serde(default)]
    pub expires_in_days: Option<i64>,
}

/// A checked [`NewApiToken`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRequest {
    pub name: String,
    pub scopes: Scopes,
    pub expires_at: Option<Timestamp>,
}

impl NewApiToken {
    /// The token to store, or the fields that are wrong.
    pub fn check(&self, now: Timestamp) -> Result<TokenRequest, Vec<(&'static str, FieldProblem)>> {
        let mut problems = Vec::new();
        let name = self.name.trim();
        let chars = name.chars().count();
        if chars == 0 {
            problems.push(("name", FieldCode::Required.because("a name is required")));
        } else if chars > MAX_NAME_CHARS {
            problems.push((
                "name",
                FieldCode::TooLong.because(format!("at most {MAX_NAME_CHARS} characters")).with("max", MAX_NAME_CHARS as i64),
            ));
        } else if name.chars().any(char::is_control) {
            problems.push(("name", FieldCode::InvalidCharacters.because("no control characters")));
        }
        if self.scopes.is_empty() {
            problems.push(("scopes", FieldCode::Required.because("at least one scope")));
        }
        let expires_at = match self.expires_in_days {
            None => None,
            Some(days @ 1..=MAX_EXPIRY_DAYS) => Some(now + SignedDuration::from_hours(24 * days)),
            Some(_) => {
                problems.push((
                    "expires_in_days",
                    FieldCode::OutOfRange.because(format!("1 to {MAX_EXPIRY_DAYS} days")).with("min", 1).with("max", MAX_EXPIRY_DAYS),
                ));
                None
            }
        };
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(TokenRequest { name: name.to_owned(), scopes: self.scopes.iter().copied().collect(), expires_at })
    }
}

/// A new token's text from 32 random bytes: the prefix, then URL-safe base64.
pub fn token_text(random: [u8; 32]) -> String {
    use base64::Engine;
    format!("{TOKEN_PREFIX}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random))
}

/// Whether a bearer token is a personal API token (rather than a session's).
pub fn is_api_token(token: &str) -> bool {
    token.starts_with(TOKEN_PREFIX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scopes(list: &[Scope]) -> Scopes {
        list.iter().copied().collect()
    }

    #[test]
    fn reads_and_writes_of_reminders_and_lists() {
        let read = scopes(&[Scope::RemindersRead]);
        assert!(read.allow("GET", "/api/reminders"));
        assert!(read.allow("GET", "/api/reminders/{id}/occurrences"));
        assert!(read.allow("POST", "/api/reminders/preview"));
        assert!(!read.allow("POST", "/api/reminders"));
        assert!(!read.allow("PUT", "/api/reminders/{id}"));
        assert!(!read.allow("DELETE", "/api/reminders/{id}"));
        assert!(!read.allow("GET", "/api/lists"));
        let write = scopes(&[Scope::RemindersWrite]);
        assert!(write.allow("POST", "/api/reminders/{id}/complete"));
        assert!(!write.allow("GET", "/api/reminders"), "write does not imply read");
        let lists = scopes(&[Scope::ListsRead, Scope::ListsWrite]);
        assert!(lists.allow("GET", "/api/lists/{id}/members"));
        assert!(lists.allow("POST", "/api/lists"));
        assert!(!lists.allow("GET", "/api/reminders"));
        assert!(!read.allow("GET", "/api/remindersx"), "a prefix is not a parent");
    }

    #[test]
    fn the_excluded_routes_take_no_token_whatever_its_scopes() {
        let all = scopes(Scope::ALL);
        for (method, route) in [
            ("GET", "/api/auth/session"),
            ("POST", "/api/auth/logout"),
            ("GET", "/api/auth/sessions"),
            ("GET", "/api/tokens"),
            ("POST", "/api/tokens"),
            ("DELETE", "/api/tokens/{id}"),
            ("DELETE", "/api/account"),
            ("GET", "/api/admin/stats"),
            ("GET", "/api/settings"),
            ("PUT", "/api/settings"),
            ("GET", "/api/channels"),
            ("GET", "/api/notifications"),
            ("POST", "/api/invites/accept"),
            ("POST", "/api/calendar/token"),
        ] {
            assert!(!all.allow(method, route), "{method} {route}");
        }
        assert!(all.allow("GET", "/api/export"));
        assert!(!scopes(&[Scope::RemindersRead]).allow("GET", "/api/export"), "export needs the lists too");
        assert!(all.allow("POST", "/api/import"));
    }

    #[test]
    fn scopes_round_trip_and_unknown_words_grant_nothing() {
        let s = scopes(&[Scope::ListsWrite, Scope::RemindersRead]);
        assert_eq!(s.stored(), "reminders:read lists:write");
        assert_eq!(Scopes::from_stored(&s.stored()), s);
        assert_eq!(Scopes::from_stored("admin reminders:read"), scopes(&[Scope::RemindersRead]));
        assert_eq!(serde_json::to_value(Scope::ListsRead).unwrap(), "lists:read");
        assert!(serde_json::from_value::<Scope>(serde_json::json!("admin")).is_err());
    }

    #[test]
    fn a_request_is_checked() {
        let now: Timestamp = "2026-11-26T00:00:00Z".parse().unwrap();
        let ok = NewApiToken {
            name: " Home Assistant ".into(),
            scopes: vec![Scope::RemindersRead, Scope::RemindersRead],
            expires_in_days: Some(30),
        };
        let r = ok.check(now).unwrap();
        assert_eq!(r.name, "Home Assistant");
        assert_eq!(r.scopes.to_vec(), vec![Scope::RemindersRead]);
        assert_eq!(r.expires_at, Some("2026-12-26T00:00:00Z".parse().unwrap()));
        let bad = NewApiToken { name: "".into(), scopes: vec![], expires_in_days: Some(0) };
        let fields: Vec<&str> = bad.check(now).unwrap_err().into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["name", "scopes", "expires_in_days"]);
        let long = NewApiToken { name: "x".repeat(101), scopes: vec![Scope::ListsRead], expires_in_days: Some(366) };
        assert_eq!(long.check(now).unwrap_err().len(), 2);
    }

    #[test]
    fn tokens_look_like_tokens() {
        let t = token_text([7; 32]);
        assert!(t.starts_with("hbk_") && t.len() == 4 + 43, "{t}");
        assert!(is_api_token(&t));
        assert!(!is_api_token("abc"));
    }
}
