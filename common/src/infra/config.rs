//! The one typed configuration of every `hibiki` process. Each setting is an environment
//! variable (a `.env` file too) and a flag of the same name; the names are fixed by
//! decisions.md.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use clap::builder::BoolishValueParser;
use secrecy::SecretString;
use url::Url;

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// HTTP address of the API.
    #[arg(long, env = "HIBIKI_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// The URL users reach: links in emails, the VAPID subject's default.
    #[arg(long, env = "HIBIKI_PUBLIC_URL", default_value = "http://localhost:8080")]
    pub public_url: Url,

    /// SQLite file, mail outbox and generated keys.
    #[arg(long, env = "HIBIKI_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// `sqlite://…` or `postgres://…`; unset means SQLite in the data directory.
    #[arg(long, env = "HIBIKI_DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,

    /// Redis for the job queues; unset means SQLite-backed queues.
    #[arg(long, env = "HIBIKI_REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,

    /// e.g. `smtp://127.0.0.1:2525` or `smtps://user:pass@host`; unset means log + outbox.
    #[arg(long, env = "HIBIKI_SMTP_URL", hide_env_values = true, value_parser = secret)]
    pub smtp_url: Option<SecretString>,

    /// Sender address of every email.
    #[arg(long, env = "HIBIKI_MAIL_FROM", default_value = "Hibiki <no-reply@localhost>")]
    pub mail_from: String,

    /// Base64url P-256 private key; unset means generated into the data directory.
    #[arg(long, env = "HIBIKI_VAPID_PRIVATE_KEY", hide_env_values = true, value_parser = secret)]
    pub vapid_private_key: Option<SecretString>,

    /// VAPID contact (`mailto:` or `https:`).
    #[arg(long, env = "HIBIKI_VAPID_SUBJECT")]
    pub vapid_subject: Option<String>,

    /// Base64 256-bit key sealing reminder contents; unset means generated into the data dir.
    #[arg(long, env = "HIBIKI_DATA_KEY", hide_env_values = true, value_parser = secret)]
    pub data_key: Option<SecretString>,

    /// For `hibiki rekey`: the base64 256-bit key to re-seal under (unset, with a generated
    /// data key: a new one is generated). Environment only in practice: flags show in `ps`.
    #[arg(long, env = "HIBIKI_NEW_DATA_KEY", hide_env_values = true, value_parser = secret)]
    pub new_data_key: Option<SecretString>,

    /// Comma-separated admin addresses.
    #[arg(long, env = "HIBIKI_ADMIN_EMAILS", value_delimiter = ',', default_value = "")]
    pub admin_emails: Vec<String>,

    /// `1` enables the developer sign-in shortcut (only while listening on loopback).
    #[arg(long, env = "HIBIKI_DEV_LOGIN", value_parser = BoolishValueParser::new(), default_value = "0")]
    pub dev_login: bool,

    /// `1` accepts push endpoints on private or loopback addresses, http too.
    #[arg(long, env = "HIBIKI_ALLOW_PRIVATE_PUSH", value_parser = BoolishValueParser::new(), default_value = "0")]
    pub allow_private_push: bool,

    /// Prometheus address of this process (`off` disables the exporter).
    #[arg(long, env = "HIBIKI_METRICS_LISTEN", default_value = "127.0.0.1:9464")]
    pub metrics_listen: String,

    /// Prefix of the queue names, so several deployments (or test runs) can share one Redis.
    #[arg(long, env = "HIBIKI_QUEUE_NAMESPACE", default_value = "hibiki")]
    pub queue_namespace: String,

    /// Built web app to serve (the Vite output).
    #[arg(long, env = "HIBIKI_WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,

    /// Sign-in requests (code, verify, link) allowed per client address and minute.
    #[arg(long, env = "HIBIKI_AUTH_RATE_PER_MINUTE", default_value_t = 30)]
    pub auth_rate_per_minute: u32,

    /// Reverse proxies whose `X-Forwarded-For` is believed (comma-separated addresses or
    /// CIDR ranges). Empty: the peer address is the client, whatever the headers say.
    #[arg(long, env = "HIBIKI_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_network)]
    pub trusted_proxies: Vec<ipnet::IpNet>,

    /// Open HTTP connections allowed in all; past it a new connection is answered 503 and
    /// closed.
    #[arg(long, env = "HIBIKI_MAX_CONNECTIONS", default_value_t = 4096)]
    pub max_connections: usize,

    /// Open HTTP connections allowed per client address (trusted proxies are exempt); past it
    /// a new connection is answered 429 and closed.
    #[arg(long, env = "HIBIKI_MAX_CONNECTIONS_PER_CLIENT", default_value_t = 64)]
    pub max_connections_per_client: usize,

    /// How long a connection may take to send a complete request head, from its first byte
    /// (or from being opened), in milliseconds.
    #[arg(long, env = "HIBIKI_REQUEST_HEAD_TIMEOUT_MS", default_value_t = 10_000)]
    pub request_head_timeout_ms: u64,

    /// How long an idle keep-alive connection is kept open, in milliseconds.
    #[arg(long, env = "HIBIKI_IDLE_TIMEOUT_MS", default_value_t = 60_000)]
    pub idle_timeout_ms: u64,

    /// API requests allowed per client address and minute.
    #[arg(long, env = "HIBIKI_API_RATE_PER_MINUTE", default_value_t = 600)]
    pub api_rate_per_minute: u32,

    /// Pushes sent per second to one push service (origin), each worker process; a push over
    /// the limit waits for its turn.
    #[arg(long, env = "HIBIKI_PUSH_RATE_PER_SECOND", default_value_t = 1000)]
    pub push_rate_per_second: u32,

    /// How long connecting to a push service may take, in milliseconds.
    #[arg(long, env = "HIBIKI_PUSH_CONNECT_TIMEOUT_MS", default_value_t = 5000)]
    pub push_connect_timeout_ms: u64,

    /// How long one push request may take in all (connecting included), in milliseconds; a
    /// push that takes longer is retried with backoff.
    #[arg(long, env = "HIBIKI_PUSH_TIMEOUT_MS", default_value_t = 15000)]
    pub push_timeout_ms: u64,

    /// The Telegram bot's token (from @BotFather); set, people can link Telegram.
    #[arg(long, env = "HIBIKI_TELEGRAM_BOT_TOKEN", hide_env_values = true, value_parser = secret)]
    pub telegram_bot_token: Option<SecretString>,

    /// The Telegram Bot API's base URL (a local stand-in in tests).
    #[arg(long, env = "HIBIKI_TELEGRAM_API_URL", default_value = "https://api.telegram.org")]
    pub telegram_api_url: Url,

    /// The LINE Messaging API channel's access token; with the secret, people can link LINE.
    #[arg(long, env = "HIBIKI_LINE_CHANNEL_ACCESS_TOKEN", hide_env_values = true, value_parser = secret)]
    pub line_channel_access_token: Option<SecretString>,

    /// The LINE channel's secret: webhook signatures are checked with it.
    #[arg(long, env = "HIBIKI_LINE_CHANNEL_SECRET", hide_env_values = true, value_parser = secret)]
    pub line_channel_secret: Option<SecretString>,

    /// The LINE Messaging API's base URL (a local stand-in in tests).
    #[arg(long, env = "HIBIKI_LINE_API_URL", default_value = "https://api.line.me")]
    pub line_api_url: Url,

    /// Who runs this Hibiki: shown on the privacy, terms and commercial-transaction-act pages.
    #[command(flatten)]
    pub operator: Operator,

    /// A Sentry-compatible DSN (`https://<key>@<host>/<project>`); set, the web app reports its
    /// errors there (scrubbed). Unset: nothing is loaded and nothing is sent.
    #[arg(long, env = "HIBIKI_ERROR_REPORTING_DSN", hide_env_values = true)]
    pub error_reporting_dsn: Option<Url>,

    /// The least time between two send-nows of one account, in milliseconds: a test knob (a
    /// test that sends twice need not wait 10 s); unset means 10 s.
    #[arg(long, env = "HIBIKI_SEND_NOW_INTERVAL_MS", hide = true, default_value_t = 10_000)]
    pub send_now_interval_ms: u64,

    /// How long one minute of the email fallback delay lasts, in milliseconds: a test knob
    /// (a restart test cannot wait real minutes); unset means a real minute.
    #[arg(long, env = "HIBIKI_FALLBACK_MINUTE_MS", hide = true)]
    pub fallback_minute_ms: Option<u64>,
}

impl Config {
    /// A configuration with every default, rooted at `data_dir` (tests and tools).
    pub fn with_data_dir(data_dir: impl Into<PathBuf>) -> Config {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrapper {
            #[command(flatten)]
            config: Config,
        }
        // Parse from an empty argument list so the defaults come from one place; the
        // environment is deliberately not consulted here.
        let mut config = Wrapper::parse_from(["hibiki"]).config;
        config.data_dir = data_dir.into();
        config
    }

    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}?mode=rwc", self.data_dir.join("hibiki.sqlite").display()),
        }
    }

    pub fn is_admin(&self, email: &str) -> bool {
        self.admin_emails.iter().any(|a| !a.trim().is_empty() && a.trim().eq_ignore_ascii_case(email))
    }

    /// `mailto:admin@<public host>` unless configured.
    pub fn vapid_subject(&self) -> String {
        self.vapid_subject.clone().unwrap_or_else(|| format!("mailto:admin@{}", self.public_url.host_str().unwrap_or("localhost")))
    }

    /// The origin the web app sends error reports to, when reporting is on (for the CSP).
    pub fn error_reporting_origin(&self) -> Option<String> {
        self.error_reporting_dsn.as_ref().and_then(|dsn| error_reporting_origin(dsn).ok())
    }

    /// Session cookies are `Secure` when users reach Hibiki over https.
    pub fn secure_cookies(&self) -> bool {
        self.public_url.scheme() == "https"
    }

    /// Whether the public URL names this machine (a laptop): `localhost` or a loopback address.
    pub fn public_url_is_loopback(&self) -> bool {
        match self.public_url.host() {
            Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost") || d.to_ascii_lowercase().ends_with(".localhost"),
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        }
    }

    /// The developer shortcut is refused unless Hibiki listens on loopback, no reverse proxy
    /// stands in front (a same-host proxy makes every request look loopback) and the public
    /// URL is this machine.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.dev_login && !self.listen.ip().is_loopback() {
            anyhow::bail!("HIBIKI_DEV_LOGIN=1 is only allowed when HIBIKI_LISTEN is a loopback address (it is {})", self.listen);
        }
        if self.dev_login && !self.trusted_proxies.is_empty() {
            anyhow::bail!("HIBIKI_DEV_LOGIN=1 is not allowed with HIBIKI_TRUSTED_PROXIES (a proxy in front makes it public)");
        }
        if self.dev_login && !self.public_url_is_loopback() {
            anyhow::bail!("HIBIKI_DEV_LOGIN=1 is only allowed when HIBIKI_PUBLIC_URL is a loopback address (it is {})", self.public_url);
        }
        if self.auth_rate_per_minute == 0 || self.api_rate_per_minute == 0 {
            anyhow::bail!("rate limits must be at least 1 per minute");
        }
        if self.push_rate_per_second == 0 {
            anyhow::bail!("HIBIKI_PUSH_RATE_PER_SECOND must be at least 1");
        }
        if self.push_connect_timeout_ms == 0 || self.push_timeout_ms == 0 {
            anyhow::bail!("HIBIKI_PUSH_CONNECT_TIMEOUT_MS and HIBIKI_PUSH_TIMEOUT_MS must be at least 1");
        }
        if let Some(dsn) = &self.error_reporting_dsn {
            error_reporting_origin(dsn)?;
        }
        Ok(())
    }
}

/// The operator's details, for the information pages (特定商取引法に基づく表記 needs the seller,
/// the person responsible, an address, a phone number and a contact). Each is optional: a page
/// says what the operator has not given.
#[derive(clap::Args, Debug, Clone, Default, serde::Serialize, utoipa::ToSchema)]
pub struct Operator {
    /// The operator's (seller's) name.
    #[arg(long = "operator-name", env = "HIBIKI_OPERATOR_NAME")]
    pub name: Option<String>,
    /// How to reach the operator: an email address or a URL.
    #[arg(long = "operator-contact", env = "HIBIKI_OPERATOR_CONTACT")]
    pub contact: Option<String>,
    /// The person responsible for the service (運営責任者).
    #[arg(long = "operator-representative", env = "HIBIKI_OPERATOR_REPRESENTATIVE")]
    pub representative: Option<String>,
    /// The operator's postal address.
    #[arg(long = "operator-address", env = "HIBIKI_OPERATOR_ADDRESS")]
    pub address: Option<String>,
    /// The operator's phone number.
    #[arg(long = "operator-phone", env = "HIBIKI_OPERATOR_PHONE")]
    pub phone: Option<String>,
}

/// A DSN's origin, refusing what a Sentry-compatible client could not use: it needs http(s),
/// a host, the public key as the user name and the project id as the path.
fn error_reporting_origin(dsn: &Url) -> anyhow::Result<String> {
    let project = dsn.path().trim_matches('/');
    if !matches!(dsn.scheme(), "http" | "https") || dsn.host_str().is_none() || dsn.username().is_empty() || project.is_empty() {
        anyhow::bail!("HIBIKI_ERROR_REPORTING_DSN must look like https://<public key>@<host>/<project id> (it is {dsn})");
    }
    Ok(dsn.origin().ascii_serialization())
}

/// An address (`10.0.0.7`) or a CIDR range (`10.0.0.0/8`).
fn parse_network(text: &str) -> Result<ipnet::IpNet, String> {
    let text = text.trim();
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{text:?} is neither an IP address nor a CIDR range"))
}

/// A secret from the command line or environment: kept out of `Debug` output, read only
/// where it is used (`expose_secret`).
fn secret(value: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let mut c = Config::with_data_dir("./data");
        c.data_key = Some("data-key-ZXhhbXBsZQ".into());
        c.new_data_key = Some("new-key-ZXhhbXBsZQ".into());
        c.vapid_private_key = Some("vapid-ZXhhbXBsZQ".into());
        c.smtp_url = Some("smtps://user:hunter2@mail.example".into());
        let printed = format!("{c:?}");
        for secret in ["data-key-ZXhhbXBsZQ", "new-key-ZXhhbXBsZQ", "vapid-ZXhhbXBsZQ", "hunter2"] {
            assert!(!printed.contains(secret), "{secret} in {printed}");
        }
        assert!(printed.contains("listen"), "the rest is printed");
    }

    #[test]
    fn defaults_match_decisions() {
        let c = Config::with_data_dir("./data");
        assert_eq!(c.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.public_url.as_str(), "http://localhost:8080/");
        assert_eq!(c.mail_from, "Hibiki <no-reply@localhost>");
        assert_eq!(c.metrics_listen, "127.0.0.1:9464");
        assert!(!c.dev_login && !c.allow_private_push);
        assert!(c.admin_emails.iter().all(|a| a.is_empty()));
        assert_eq!(c.vapid_subject(), "mailto:admin@localhost");
        assert!(c.database_url().starts_with("sqlite://"));
        assert_eq!((c.push_rate_per_second, c.push_connect_timeout_ms, c.push_timeout_ms), (1000, 5000, 15000));
    }

    #[test]
    fn push_settings_must_be_positive() {
        let mut c = Config::with_data_dir("./data");
        assert!(c.check().is_ok());
        c.push_rate_per_second = 0;
        assert!(c.check().is_err());
        c.push_rate_per_second = 1;
        c.push_timeout_ms = 0;
        assert!(c.check().is_err());
        c.push_timeout_ms = 1;
        c.push_connect_timeout_ms = 0;
        assert!(c.check().is_err());
    }

    #[test]
    fn dev_login_needs_loopback() {
        let mut c = Config::with_data_dir("./data");
        c.dev_login = true;
        assert!(c.check().is_ok());
        for public in ["http://127.0.0.1:8080", "http://[::1]:9000/", "http://app.localhost:8080"] {
            c.public_url = public.parse().unwrap();
            assert!(c.check().is_ok(), "{public} is this machine");
        }
        c.public_url = "https://hibiki.example.com".parse().unwrap();
        assert!(c.check().is_err(), "a public URL elsewhere");
        c.public_url = "http://localhost:8080".parse().unwrap();
        c.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
        assert!(c.check().is_err(), "a proxy in front");
        c.trusted_proxies.clear();
        c.listen = "0.0.0.0:8080".parse().unwrap();
        assert!(c.check().is_err());
    }

    #[test]
    fn admins_compare_case_insensitively() {
        let mut c = Config::with_data_dir("./data");
        c.admin_emails = vec!["Boss@Example.com".into(), " ".into()];
        assert!(c.is_admin("boss@example.com"));
        assert!(!c.is_admin("other@example.com"));
        assert!(!c.is_admin(""));
    }

    #[test]
    fn error_reporting_is_off_unless_a_usable_dsn_is_given() {
        let mut c = Config::with_data_dir("./data");
        assert!(c.error_reporting_dsn.is_none() && c.error_reporting_origin().is_none());
        assert!(c.operator.name.is_none() && c.operator.contact.is_none());
        c.error_reporting_dsn = Some("https://abc123@errors.example.com:8443/42".parse().unwrap());
        assert!(c.check().is_ok());
        assert_eq!(c.error_reporting_origin().as_deref(), Some("https://errors.example.com:8443"));
        for bad in ["https://errors.example.com/42", "https://abc@errors.example.com/", "ftp://abc@errors.example.com/1"] {
            c.error_reporting_dsn = Some(bad.parse().unwrap());
            assert!(c.check().is_err(), "{bad} should be refused");
        }
    }
}
