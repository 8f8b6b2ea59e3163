//! Typed ids: a reminder id cannot be passed where a user id belongs. Each is a UUID we made,
//! parsed once where it enters (a path, a body, a row); the wire and the database see its
//! hyphenated text, so a string that is not one never reaches a query.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sqlx::any::{Any, AnyTypeInfo};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use uuid::Uuid;

/// A text that is not an id: every id we make is a UUID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not an id")]
pub struct NotAnId;

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Uuid);

        impl $name {
            /// A new random id (UUID v4).
            pub fn generate() -> Self {
                Self(Uuid::new_v4())
            }

            pub fn as_uuid(&self) -> Uuid {
                self.0
            }
        }

        impl From<Uuid> for $name {
            fn from(id: Uuid) -> Self {
                Self(id)
            }
        }

        impl FromStr for $name {
            type Err = NotAnId;

            fn from_str(text: &str) -> Result<Self, NotAnId> {
                // Only the hyphenated form we hand out: one text per id, so a lookup by text
                // and one by id agree.
                if text.len() != 36 {
                    return Err(NotAnId);
                }
                Uuid::parse_str(text).map(Self).map_err(|_| NotAnId)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.hyphenated().fmt(f)
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&self.0.hyphenated())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                text.parse().map_err(|_| serde::de::Error::custom(concat!("not a ", stringify!($name))))
            }
        }

        impl sqlx::Type<Any> for $name {
            fn type_info() -> AnyTypeInfo {
                <String as sqlx::Type<Any>>::type_info()
            }
        }

        impl sqlx::Encode<'_, Any> for $name {
            fn encode_by_ref(&self, buf: &mut <Any as sqlx::Database>::ArgumentBuffer) -> Result<IsNull, BoxDynError> {
                sqlx::Encode::<Any>::encode(self.to_string(), buf)
            }
        }

        impl<'r> sqlx::Decode<'r, Any> for $name {
            fn decode(value: <Any as sqlx::Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                let text = <&str as sqlx::Decode<Any>>::decode(value)?;
                Ok(text.parse::<$name>()?)
            }
        }
    };
}

id_type! {
    /// An account.
    UserId
}

id_type! {
    /// A reminder.
    ReminderId
}

id_type! {
    /// A delivery log entry: one notification of one reminder (an occurrence, a snooze, a send-now...).
    LogId
}

id_type! {
    /// One device's push subscription.
    SubscriptionId
}

id_type! {
    /// A list of reminders (an account's default list, or one it made).
    ListId
}

id_type! {
    /// An invitation to a list.
    InviteId
}

id_type! {
    /// A channel a person linked (ntfy, webhook, Telegram, LINE).
    ChannelId
}

id_type! {
    /// A personal API token (its public id; the token itself is never stored).
    ApiTokenId
}

id_type! {
    /// A reminder's trigger link (its public id; the secret is never stored).
    TriggerId
}

id_type! {
    /// A signed-in session (its public id; the token itself is never stored).
    SessionId
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_hyphenated_uuids_on_the_wire() {
        let id = ReminderId::generate();
        assert_eq!(id.as_uuid().get_version_num(), 4);
        let json = serde_json::to_value(id).unwrap();
        assert_eq!(json, serde_json::json!(id.as_uuid().hyphenated().to_string()));
        assert_eq!(serde_json::from_value::<ReminderId>(json).unwrap(), id);
        assert_ne!(ReminderId::generate(), id);
    }

    #[test]
    fn only_the_text_we_hand_out_is_an_id() {
        let id = LogId::generate();
        assert_eq!(id.to_string().parse::<LogId>(), Ok(id));
        for not_one in ["", "log-1", "not-a-uuid", "\0", &id.as_uuid().simple().to_string(), &format!("{{{id}}}"), &format!("{id} ")] {
            assert_eq!(not_one.parse::<LogId>(), Err(NotAnId), "{not_one:?}");
            assert!(serde_json::from_value::<LogId>(serde_json::json!(not_one)).is_err());
        }
        // Upper case parses to the same id and is written back in lower case.
        assert_eq!(id.to_string().to_uppercase().parse::<LogId>().map(|i| i.to_string()), Ok(id.to_string()));
    }
}
