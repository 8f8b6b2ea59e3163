//! Email address rules of the spec (section 5): non-space text, `@`, non-space text, a dot,
//! then more text. Addresses are compared in lower case.

/// The longest address SMTP can carry (RFC 5321 path limit).
pub const MAX_EMAIL_LEN: usize = 254;

/// Trims and lower-cases an address, or says why it is not one.
pub fn normalize(raw: &str) -> Result<String, &'static str> {
    let email = raw.trim();
    if email.is_empty() {
        return Err("Email address is required");
    }
    if email.len() > MAX_EMAIL_LEN || !is_valid(email) {
        return Err("Invalid email format");
    }
    Ok(email.to_lowercase())
}

fn is_valid(email: &str) -> bool {
    if email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = email.rsplit_once('@') else { return false };
    if local.is_empty() || local.contains('@') {
        return false;
    }
    match domain.rsplit_once('.') {
        Some((host, tld)) => !host.is_empty() && !tld.is_empty(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_normalizes() {
        assert_eq!(normalize("  Alice@Example.COM ").unwrap(), "alice@example.com");
        assert!(normalize("a@b.co").is_ok());
        assert!(normalize("first.last+tag@sub.example.jp").is_ok());
    }

    #[test]
    fn rejects() {
        assert_eq!(normalize("   "), Err("Email address is required"));
        for bad in ["plain", "a@b", "@b.com", "a@.com", "a@b.", "a b@c.com", "a@b@c.com", "a\u{7}b@c.com"] {
            assert_eq!(normalize(bad), Err("Invalid email format"), "{bad:?}");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert!(normalize(&long).is_err());
    }
}
