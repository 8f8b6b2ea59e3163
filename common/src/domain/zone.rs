//! A time zone people live in, by its IANA name: parsed once where it enters (a request, a
//! row), spelled as the time zone database spells it, and carrying jiff's zone for the math.

use jiff::tz::TimeZone;
use serde::Serialize;
use sqlx::any::{Any, AnyTypeInfo};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;

#[derive(Clone)]
pub struct Zone {
    name: String,
    tz: TimeZone,
}

impl Zone {
    /// The zone `name` names, spelled as the database does (`asia/tokyo` is `Asia/Tokyo`).
    /// Files of the database that are not zones people live in (`localtime`, `posixrules`,
    /// `Factory`, the `posix/` and `right/` copies, and the bare legacy names such as
    /// `EST5EDT` or `Japan`) are not zones here; `UTC` is.
    pub fn parse(name: &str) -> Option<Zone> {
        use std::collections::HashMap;
        use std::sync::OnceLock;
        static NAMES: OnceLock<HashMap<String, String>> = OnceLock::new();
        let names = NAMES.get_or_init(|| {
            jiff::tz::db().available().map(|n| n.to_string()).filter(|n| is_place_zone(n)).map(|n| (n.to_ascii_lowercase(), n)).collect()
        });
        if name.is_empty() || name.len() > 64 {
            return None;
        }
        let canonical = names.get(&name.to_ascii_lowercase())?;
        let tz = TimeZone::get(canonical).ok()?;
        Some(Zone { name: canonical.clone(), tz })
    }

    pub fn utc() -> Zone {
        Zone { name: "UTC".to_owned(), tz: TimeZone::UTC }
    }

    /// A name read back from storage: what we stored was checked, but the database it was
    /// checked against may have changed since; its local times are then read in UTC.
    fn stored(name: String) -> Zone {
        Zone::parse(&name).unwrap_or_else(|| {
            tracing::warn!(zone = %name, "a stored time zone is no longer known; reading it as UTC");
            Zone { name, tz: TimeZone::UTC }
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn tz(&self) -> &TimeZone {
        &self.tz
    }

    pub fn is_utc(&self) -> bool {
        self.name == "UTC"
    }
}

fn is_place_zone(name: &str) -> bool {
    if name == "UTC" {
        return true;
    }
    let Some((area, _)) = name.split_once('/') else { return false };
    !matches!(area, "posix" | "right" | "SystemV") && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"/_-+".contains(&b))
}

impl PartialEq for Zone {
    fn eq(&self, other: &Zone) -> bool {
        self.name == other.name
    }
}

impl Eq for Zone {}

impl std::fmt::Debug for Zone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

impl std::fmt::Display for Zone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

impl Serialize for Zone {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

impl sqlx::Type<Any> for Zone {
    fn type_info() -> AnyTypeInfo {
        <String as sqlx::Type<Any>>::type_info()
    }
}

impl sqlx::Encode<'_, Any> for Zone {
    fn encode_by_ref(&self, buf: &mut <Any as sqlx::Database>::ArgumentBuffer) -> Result<IsNull, BoxDynError> {
        sqlx::Encode::<Any>::encode_by_ref(&self.name, buf)
    }
}

impl<'r> sqlx::Decode<'r, Any> for Zone {
    fn decode(value: <Any as sqlx::Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Zone::stored(<String as sqlx::Decode<Any>>::decode(value)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_are_spelled_as_the_database_spells_them() {
        assert_eq!(Zone::parse("asia/tokyo").map(|z| z.name().to_owned()).as_deref(), Some("Asia/Tokyo"));
        assert_eq!(Zone::parse("UTC"), Some(Zone::utc()));
        for not_one in ["", "Asia/Nowhere", "localtime", "posixrules", "Factory", "posix/Asia/Tokyo", "right/UTC", "EST5EDT", "Japan"] {
            assert!(Zone::parse(not_one).is_none(), "{not_one:?}");
        }
        let tokyo = Zone::parse("Asia/Tokyo").unwrap();
        let at: jiff::Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        assert_eq!(at.to_zoned(tokyo.tz().clone()).hour(), 9);
        assert_eq!(serde_json::to_value(&tokyo).unwrap(), serde_json::json!("Asia/Tokyo"));
    }

    #[test]
    fn a_stored_zone_no_longer_known_reads_as_utc_and_keeps_its_name() {
        let gone = Zone::stored("Mars/Olympus".into());
        assert_eq!(gone.name(), "Mars/Olympus");
        assert_eq!(gone.tz(), &TimeZone::UTC);
    }
}
