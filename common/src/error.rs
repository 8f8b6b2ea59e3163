use std::collections::BTreeMap;

/// Errors of the domain and storage layer. The API maps each variant to the contract's JSON
/// envelope in one place (`hibiki_api::error`).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("validation failed")]
    Validation(BTreeMap<String, FieldProblem>),
    #[error("not found")]
    NotFound,
    #[error("at most {0} active reminders")]
    ReminderLimit(usize),
    #[error("at most {0} lists of one's own")]
    ListLimit(usize),
    #[error("the default list cannot be deleted")]
    DefaultList,
    #[error("a list has at most {0} people, pending invitations included")]
    MemberLimit(usize),
    #[error("this address is already in the list")]
    AlreadyMember,
    /// An invitation token that is not one, or was used, cancelled or expired.
    #[error("this invitation is not valid any more")]
    InviteInvalid,
    /// Signed in as another address than the invitation's.
    #[error("this invitation is for another address")]
    InviteWrongAccount,
    /// A member asked for what only the list's owner may do.
    #[error("only the list's owner may do this")]
    Forbidden,
    #[error("this push endpoint belongs to another account")]
    EndpointInUse,
    #[error("no device is subscribed")]
    SubscriptionNotFound,
    #[error("at most {0} devices")]
    DeviceLimit(i64),
    /// A per-account limit (send-now); retry after this many seconds.
    #[error("too many requests, retry in {0} s")]
    RateLimited(i64),
    #[error("at most {0} channels")]
    ChannelLimit(i64),
    /// Telegram or LINE, which the operator has not enabled.
    #[error("this channel is not enabled on this server")]
    ChannelUnavailable,
    /// A channel URL that breaks the address rules.
    #[error("the URL was refused: {0}")]
    EndpointRejected(String),
    #[error("at most {0} API tokens")]
    TokenLimit(i64),
    #[error("at most {0} trigger links per reminder")]
    TriggerLimit(i64),
    /// A service a use case hands work to or asks (a queue, a bot's platform) did not answer.
    #[error("the {0} is unavailable")]
    Unavailable(&'static str),
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
    pub fn field(field: &str, problem: FieldProblem) -> Self {
        let mut fields = BTreeMap::new();
        fields.insert(field.to_owned(), problem);
        Error::Validation(fields)
    }
}

/// What is wrong with a field, as a machine code from a closed set (api.md: clients translate
/// by code and its numbers, never by the message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldCode {
    /// Missing or empty.
    Required,
    /// Longer than `max` (characters, bytes or items as the message says).
    TooLong,
    /// Shorter than `min`.
    TooShort,
    /// Not of the form the field takes (a time, a key, an object, a type).
    InvalidFormat,
    /// A number outside `min`..`max`.
    OutOfRange,
    /// An instant that must be in the future is not.
    NotInFuture,
    /// An instant further ahead than allowed (`max` years or `days`).
    TooFar,
    /// Not a canonical IANA time zone.
    UnknownZone,
    /// More items than `max`.
    TooMany,
    /// Not one of the values the field takes.
    InvalidChoice,
    /// Characters that cannot be stored or shown (control or NUL characters).
    InvalidCharacters,
    /// Two fields that exclude each other were both given.
    Conflict,
    /// Not possible for this reminder as it is (skipping a one-time reminder's next time).
    NotApplicable,
}

impl FieldCode {
    /// This code with the English message for people reading the answer.
    pub fn because(self, message: impl Into<String>) -> FieldProblem {
        FieldProblem { code: self, message: message.into(), params: BTreeMap::new() }
    }

    pub const ALL: [FieldCode; 13] = [
        FieldCode::Required,
        FieldCode::TooLong,
        FieldCode::TooShort,
        FieldCode::InvalidFormat,
        FieldCode::OutOfRange,
        FieldCode::NotInFuture,
        FieldCode::TooFar,
        FieldCode::UnknownZone,
        FieldCode::TooMany,
        FieldCode::InvalidChoice,
        FieldCode::InvalidCharacters,
        FieldCode::Conflict,
        FieldCode::NotApplicable,
    ];
}

/// One field's problem: its code, its numbers (`max`, `min`, `years`, `days`) and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub code: FieldCode,
    pub message: String,
    pub params: BTreeMap<&'static str, i64>,
}

impl FieldProblem {
    /// With a number the message names (`max`, `min`...).
    pub fn with(mut self, name: &'static str, value: impl Into<i64>) -> FieldProblem {
        self.params.insert(name, value.into());
        self
    }
}

/// Collects field errors so that one response names every problem at once.
#[derive(Debug, Default)]
pub struct FieldErrors(BTreeMap<String, FieldProblem>);

impl FieldErrors {
    /// The first problem of a field is the one it reports.
    pub fn add(&mut self, field: &str, problem: FieldProblem) {
        self.0.entry(field.to_owned()).or_insert(problem);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_result(self) -> Result<()> {
        if self.0.is_empty() { Ok(()) } else { Err(Error::Validation(self.0)) }
    }
}
