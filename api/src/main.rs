//! portal-api: parses the configuration, sets up logging, runs the server (see lib.rs).

use std::path::PathBuf;

use clap::Parser;

/// mimalloc frees across threads without a lock; with glibc's malloc, the futex waits of freeing
/// rows built on another thread took a third of the letters list's time (issue 22, perf).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The imaging patient portal's API and web server.
#[derive(Debug, Parser)]
#[command(name = "portal-api", version, about)]
struct Cli {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    bind: String,
    /// sqlite://path (file and folder are created) or postgres://user@host/db.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://data/portal.db",
        global = true
    )]
    database_url: String,
    /// Folder of the built web app.
    #[arg(long, env = "WEB_DIR", default_value = "web/dist")]
    web_dir: PathBuf,
    /// Load the demo clinic into an empty database and mark the portal configured.
    #[arg(long, env = "PORTAL_DEMO", value_parser = clap::builder::BoolishValueParser::new(), default_value_t = false, num_args = 0..=1, default_missing_value = "true")]
    demo: bool,
    /// Development mode: stack traces in 500 bodies.
    #[arg(long, env = "PORTAL_DEV", value_parser = clap::builder::BoolishValueParser::new(), default_value_t = false, num_args = 0..=1, default_missing_value = "true")]
    dev: bool,
    /// Key file for secrets at rest (created when missing); default beside a SQLite database,
    /// else data/portal.key.
    #[arg(long, env = "PORTAL_KEY_FILE", global = true)]
    key_file: Option<PathBuf>,
    /// Reverse proxies whose X-Forwarded-For names the client (addresses or CIDR ranges,
    /// comma-separated, e.g. "127.0.0.1,10.0.0.0/8"). Set it when the portal runs behind one:
    /// otherwise every patient shares the proxy's address in the per-address limits.
    #[arg(long, env = "PORTAL_TRUSTED_PROXIES", default_value = "")]
    trusted_proxies: String,
    /// Run the notifications engine (assignment notices, reminders, I Am Here, survey expiry) in
    /// this process. Without it, unfinished surveys still expire after their appointment.
    #[arg(long, env = "PORTAL_NOTIFICATIONS_ENGINE", value_parser = clap::builder::BoolishValueParser::new(), default_value_t = false, num_args = 0..=1, default_missing_value = "true")]
    notifications_engine: bool,
    /// The clinic's offset from UTC in minutes (-720 to 840), which places the engine's business
    /// days and hours.
    #[arg(long, env = "PORTAL_CLINIC_UTC_OFFSET_MINUTES", default_value_t = -300, allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(-720..=840))]
    clinic_utc_offset_minutes: i32,
    /// How often the outbox delivers what is due, in milliseconds (at least 100).
    #[arg(long, env = "PORTAL_OUTBOX_PERIOD_MS", default_value_t = 5000, value_parser = clap::value_parser!(u64).range(100..))]
    outbox_period_ms: u64,
    /// Clients reach this portal over HTTPS (TLS at a proxy in front of it): every answer carries
    /// Strict-Transport-Security.
    #[arg(long, env = "PORTAL_PUBLIC_HTTPS", value_parser = clap::builder::BoolishValueParser::new(), default_value_t = false, num_args = 0..=1, default_missing_value = "true")]
    public_https: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Print the OpenAPI 3.1 document (JSON) and exit, without starting a server.
    Openapi,
    /// Copy the whole database (--database-url) into a new file, while the portal runs: SQLite's
    /// online copy, or pg_dump's custom format for PostgreSQL.
    Backup {
        /// The backup file to write (must not exist).
        out: PathBuf,
    },
    /// Put a backup in place of the database (--database-url). Stop the portal first.
    Restore {
        /// The backup file written by `portal-api backup`.
        from: PathBuf,
        /// Replace a database that already holds data.
        #[arg(long)]
        force: bool,
    },
    /// The audit log's tamper evidence (hash chain and signed checkpoints).
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
}

#[derive(Debug, clap::Subcommand)]
enum AuditCommand {
    /// Walk the chain and the checkpoints of --database-url with the key of --key-file; print the
    /// first broken or missing row and exit 1 on any break.
    Verify,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Openapi) => {
            let doc = portal_api::openapi::document();
            println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
            return std::process::ExitCode::SUCCESS;
        }
        Some(Command::Backup { out }) => {
            return report(
                portal_api::backup::backup(&cli.database_url, out).await,
                "backup",
            )
        }
        Some(Command::Restore { from, force }) => {
            let done = portal_api::backup::restore(&cli.database_url, from, *force).await;
            return report(done, "restore");
        }
        Some(Command::Audit {
            command: AuditCommand::Verify,
        }) => return audit_verify(&cli.database_url, cli.key_file.clone()).await,
        None => {}
    }
    {
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        // Every ERROR event also goes to the Error Logs (error_log.rs keeps only ERROR events and
        // the request line of the `http` span); the one filter is the console's.
        let errors = portal_api::error_log::ErrorLogLayer;
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env()
                    .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
            )
            .finish()
            .with(errors)
            .init();
    }
    let trusted_proxies = match portal_api::client_addr::TrustedProxies::parse(&cli.trusted_proxies)
    {
        Ok(t) => t,
        Err(e) => {
            eprintln!("portal-api: --trusted-proxies: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let config = portal_api::Config {
        bind: cli.bind,
        database_url: cli.database_url,
        web_dir: cli.web_dir,
        demo: cli.demo,
        dev: cli.dev,
        key_file: cli.key_file,
        trusted_proxies,
        notifications_engine: cli.notifications_engine,
        clinic_utc_offset_minutes: cli.clinic_utc_offset_minutes,
        outbox_period: std::time::Duration::from_millis(cli.outbox_period_ms),
        public_https: cli.public_https,
    };
    match portal_api::serve(config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!(error = %err, "portal-api failed");
            eprintln!("portal-api: {err}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Prints what a backup or restore did (or why it failed) and gives the exit code.
fn report(
    result: Result<portal_api::backup::Report, String>,
    what: &str,
) -> std::process::ExitCode {
    match result {
        Ok(done) => {
            println!(
                "{what} done ({}): {} ({} bytes)",
                done.engine,
                done.file.display(),
                done.bytes
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("portal-api {what}: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `portal-api audit verify`: exit 0 when the chain is whole, 1 on a break, 2 when it cannot run.
async fn audit_verify(database_url: &str, key_file: Option<PathBuf>) -> std::process::ExitCode {
    match portal_api::audit_chain::verify_database(database_url, key_file).await {
        Ok(report) => {
            let started = report.elapsed;
            match &report.report.first_break {
                None => {
                    println!(
                        "audit chain OK: {} rows, {} signed checkpoints ({} ms)",
                        report.report.rows,
                        report.report.checkpoints,
                        started.as_millis()
                    );
                    std::process::ExitCode::SUCCESS
                }
                Some(b) => {
                    println!(
                        "audit chain BROKEN at {b} ({} rows verified before it)",
                        report.report.rows
                    );
                    std::process::ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            eprintln!("portal-api audit verify: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
