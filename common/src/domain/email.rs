//! Email address rules: the spec's (section 5: non-space text, `@`, non-space text, a dot, then
//! more text), and only addresses the mailer can send to: lettre's own parser (the one the
//! mail worker uses) plus what SMTP servers refuse in practice (RFC 5321 lengths, dots in the
//! wrong place, address literals, non-ASCII without SMTPUTF8). Addresses are compared in
//! lower case.

/// The longest address SMTP can carry (RFC 5321 path limit).
pub const MAX_EMAIL_LEN: usize = 254;

/// An address that passed [`Email::parse`] (trimmed, lower-cased, one the mailer can send to),
/// or one read back from the database, where only parsed addresses are written. Compared as
/// stored; printed only on purpose (`as_str`, or [`mask`] for logs).
#[derive(Clone, PartialEq, Eq, Hash, serde::Serialize, sqlx::Type)]
#[serde(transparent)]
#[sqlx(transparent)]
pub struct Email(String);

/// Masked, so a struct holding an address can be logged with `{:?}`.
impl std::fmt::Debug for Email {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Email({})", self.masked())
    }
}

impl Email {
    /// Trims and lower-cases an address, or says why it is not one.
    pub fn parse(raw: &str) -> Result<Email, &'static str> {
        let email = raw.trim();
        if email.is_empty() {
            return Err("Email address is required");
        }
        if email.len() > MAX_EMAIL_LEN || !is_valid(email) {
            return Err("Invalid email format");
        }
        Ok(Email(email.to_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// As logs and peeks show it.
    pub fn masked(&self) -> String {
        mask(&self.0)
    }
}

/// An address as logs and peeks show it: the first character of the local part, `***`, and
/// the domain (`a***@example.com`). Anything without an `@` is masked whole.
pub fn mask(email: &str) -> String {
    match email.rsplit_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".to_owned(),
    }
}

/// The longest local part (RFC 5321 section 4.5.3.1.1).
const MAX_LOCAL_LEN: usize = 64;

fn is_valid(email: &str) -> bool {
    // ASCII only: a non-ASCII address needs SMTPUTF8, which many servers lack (and it lets
    // bidi overrides and combining marks into an address).
    if !email.is_ascii() || email.chars().any(|c| c.is_ascii_whitespace() || c.is_ascii_control()) {
        return false;
    }
    let Some((local, domain)) = email.rsplit_once('@') else { return false };
    if local.is_empty()
        || local.len() > MAX_LOCAL_LEN
        || local.contains('@')
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
    {
        return false;
    }
    if !is_host_name(domain) {
        return false;
    }
    email.parse::<lettre::Address>().is_ok()
}

/// A DNS host name of two labels or more with an alphabetic top-level label: no address
/// literal (`[127.0.0.1]`), no bare IP, no empty label.
fn is_host_name(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    let tld = labels.last().copied().unwrap_or("");
    labels.len() >= 2 && labels.iter().all(label_ok) && (tld.bytes().all(|b| b.is_ascii_alphabetic()) || tld.starts_with("xn--"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_normalizes() {
        let alice = Email::parse("  Alice@Example.COM ").unwrap();
        assert_eq!(alice.as_str(), "alice@example.com");
        assert_eq!(format!("{alice:?}"), "Email(a***@example.com)", "debug output is masked");
        assert_eq!(serde_json::to_value(&alice).unwrap(), serde_json::json!("alice@example.com"));
        assert!(Email::parse("a@b.co").is_ok());
        assert!(Email::parse("first.last+tag@sub.example.jp").is_ok());
    }

    #[test]
    fn rejects() {
        assert_eq!(Email::parse("   ").err(), Some("Email address is required"));
        for bad in ["plain", "a@b", "@b.com", "a@.com", "a@b.", "a b@c.com", "a@b@c.com", "a\u{7}b@c.com"] {
            assert_eq!(Email::parse(bad).err(), Some("Invalid email format"), "{bad:?}");
        }
        // What the mailer cannot send to.
        let long_local = format!("{}@x.test", "a".repeat(65));
        for bad in [
            long_local.as_str(),
            "a@x..test",
            ".a@x.test",
            "a.@x.test",
            "a..b@x.test",
            "a@[127.0.0.1]",
            "a@127.0.0.1",
            "a@-x.test",
            "a@x.test\u{202E}",
            "a\u{202E}b@x.test",
            "e\u{301}@x.test",
            "名前@例え.jp",
            "a@x.t3st",
            "a\"b@x.test",
        ] {
            assert_eq!(Email::parse(bad).err(), Some("Invalid email format"), "{bad:?}");
        }
        assert!(Email::parse(&format!("{}@x.test", "a".repeat(64))).is_ok(), "64 is the limit");
        assert!(Email::parse("a@xn--r8jz45g.jp").is_ok(), "an IDN in its ASCII form");
        let long = format!("{}@example.com", "a".repeat(250));
        assert!(Email::parse(&long).is_err());
    }
}

#[cfg(test)]
mod mask_tests {
    use super::mask;

    #[test]
    fn masks_all_but_the_first_character_and_the_domain() {
        assert_eq!(mask("alice@example.com"), "a***@example.com");
        assert_eq!(mask("a@example.com"), "a***@example.com");
        assert_eq!(mask("not-an-address"), "***");
    }
}
