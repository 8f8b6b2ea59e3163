use std::collections::BTreeMap;

/// Errors of the domain and storage layer. The API maps each variant to the contract's JSON
/// envelope in one place (`hibiki_api::error`).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("validation failed")]
    Validation(BTreeMap<String, String>),
    #[error("not found")]
    NotFound,
    #[error("at most {0} active reminders")]
    ReminderLimit(usize),
    #[error("this push endpoint belongs to another account")]
    EndpointInUse,
    #[error("at most {0} devices")]
    DeviceLimit(i64),
    /// A per-account limit (send-now); retry after this many seconds.
    #[error("too many requests, retry in {0} s")]
    RateLimited(i64),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored data is not what this version writes: {0}")]
    Corrupt(String),
    #[error("stored data could not be decrypted")]
    Crypto,
    #[error("JSON could not be read or written: {0}")]
    Json(#[from] serde_json::Error),
    #[error("unsupported database URL scheme {0:?} (use sqlite: or postgres:)")]
    UnsupportedDatabase(String),
    #[error("creating {path}: {source}")]
    CreateDir { path: std::path::PathBuf, source: std::io::Error },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A validation failure on a single field.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        let mut fields = BTreeMap::new();
        fields.insert(field.to_owned(), message.into());
        Error::Validation(fields)
    }
}

/// Collects field errors so that one response names every problem at once.
#[derive(Debug, Default)]
pub struct FieldErrors(BTreeMap<String, String>);

impl FieldErrors {
    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        self.0.entry(field.to_owned()).or_insert_with(|| message.into());
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_result(self) -> Result<()> {
        if self.0.is_empty() { Ok(()) } else { Err(Error::Validation(self.0)) }
    }
}
