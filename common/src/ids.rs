//! Typed ids: a reminder id cannot be passed where a user id belongs. Each is the text of a
//! UUID we made (stored as text on both backends); the wire and the database see a plain
//! string.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, sqlx::Type)]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(String);

        impl $name {
            /// A new random id (UUID v4).
            pub fn generate() -> Self {
                Self(uuid::Uuid::new_v4().to_string())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(id.to_owned())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_plain_strings_on_the_wire() {
        let id = ReminderId::generate();
        assert_eq!(uuid::Uuid::parse_str(id.as_str()).map(|u| u.get_version_num()), Ok(4));
        let json = serde_json::to_value(&id).unwrap();
        assert_eq!(json, serde_json::json!(id.as_str()));
        assert_eq!(serde_json::from_value::<ReminderId>(json).unwrap(), id);
        assert_ne!(ReminderId::generate(), id);
    }
}

id_type! {
    /// A signed-in session (its public id; the token itself is never stored).
    SessionId
}
