use clap::{Parser, Subcommand};
use hibiki::{Application, Parts};
use hibiki_common::infra::config::Config;
use hibiki_common::infra::keys::VapidKeys;

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Hibiki (響き): reminders you hear.
#[derive(Parser)]
#[command(name = "hibiki", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    config: Config,
}

#[derive(Subcommand)]
enum Command {
    /// API + scheduler + worker in one process (the default).
    All,
    /// The HTTP API only.
    Api,
    /// The scheduler daemon only.
    Scheduler,
    /// The workers only.
    Worker,
    /// Apply database migrations and exit.
    Migrate,
    /// Print a new VAPID key pair and exit.
    VapidKeys,
    /// Write a consistent copy of the embedded (SQLite) database to FILE, while Hibiki runs.
    Backup {
        /// Where the copy goes (must not exist yet).
        file: std::path::PathBuf,
    },
    /// Re-seal every stored secret under a new data key (HIBIKI_NEW_DATA_KEY, or a generated
    /// one when the data key was generated). Stop Hibiki first.
    Rekey,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_env("HIBIKI_LOG").unwrap_or_else(|_| "info,sqlx=warn".into());
    // Operators who ship logs to a collector want one JSON object a line.
    if std::env::var("HIBIKI_LOG_FORMAT").is_ok_and(|f| f == "json") {
        tracing_subscriber::fmt().json().with_env_filter(filter).init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    let parts = match cli.command.unwrap_or(Command::All) {
        Command::All => Parts::ALL,
        Command::Api => Parts { api: true, scheduler: false, worker: false },
        Command::Scheduler => Parts { api: false, scheduler: true, worker: false },
        Command::Worker => Parts { api: false, scheduler: false, worker: true },
        Command::Migrate => {
            hibiki::open_database(&cli.config).await?;
            println!("migrations applied");
            return Ok(());
        }
        Command::Backup { file } => {
            let bytes = hibiki::backup(&cli.config, &file).await?;
            println!("backup written to {} ({bytes} bytes)", file.display());
            return Ok(());
        }
        Command::Rekey => {
            let done = hibiki::rekey(&cli.config).await?;
            println!("re-sealed {} values under key {}", done.values, done.key_id);
            if done.generated {
                println!("the new key replaced {}", hibiki_common::infra::keys::data_key_file(&cli.config).display());
            } else {
                println!("now set HIBIKI_DATA_KEY to the value of HIBIKI_NEW_DATA_KEY, and start Hibiki");
            }
            return Ok(());
        }
        Command::VapidKeys => {
            let keys = VapidKeys::generate();
            println!("HIBIKI_VAPID_PRIVATE_KEY={}\n# public key (for reference): {}", keys.private_key, keys.public_key);
            return Ok(());
        }
    };
    let metrics = if cli.config.metrics_listen != "off" {
        let addr: std::net::SocketAddr = cli.config.metrics_listen.parse()?;
        use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
        // Histograms with buckets (not summaries), so Prometheus can aggregate percentiles
        // across replicas.
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full(hibiki_common::metric_names::DELIVERY_LATENESS_SECONDS.into()),
                &[0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 5.0, 10.0, 30.0, 60.0],
            )?
            .set_buckets_for_metric(
                Matcher::Full(hibiki_common::metric_names::HTTP_REQUEST_DURATION_SECONDS.into()),
                &[0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0],
            )?
            .install_recorder()?;
        Some((addr, handle))
    } else {
        None
    };
    let mut app = Application::start(cli.config, parts).await?;
    if let Some((addr, handle)) = metrics {
        let bound = app.serve_metrics(addr, handle).await?;
        tracing::info!(address = %bound, "metrics at /metrics");
    }
    app.run_until_signal().await;
    Ok(())
}
