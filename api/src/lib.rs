//! The portal's HTTP API. `main.rs` parses the configuration and calls [`serve`]; tests may call
//! [`build`] and [`app`] with a listener of their own, so the server under test is the real one.

pub mod answers;
pub mod audit;
pub mod audit_chain;
pub mod auth;
pub mod backup;
pub mod change_feed;
pub mod client_addr;
pub mod clinic_labels;
pub mod connection_test;
pub mod cookies;
pub mod csrf;
pub mod db;
pub mod demo;
pub mod denied_access;
pub mod error;
pub mod error_log;
pub mod fmt;
pub mod html;
pub mod integrations;
pub mod jobs;
pub mod labels_catalog;
pub mod letter_hold;
pub mod letter_pdf;
pub mod license;
pub mod notice_languages;
pub mod notice_templates;
pub mod notice_words;
pub mod notifications;
pub mod openapi;
pub mod outbox;
pub mod password_rules;
pub mod pdf;
pub mod pdf_fonts;
pub mod printing;
pub mod release_sync;
pub mod request_limit;
pub mod routes;
pub mod secrets;
pub mod security_headers;
pub mod services;
pub mod settings;
pub mod signed_ids;
pub mod site_usage;
pub mod sso;
pub mod staff_start;
pub mod store;
pub mod summary_form_pdf;
pub mod summary_pdf;
pub mod survey_link;
pub mod survey_pins;
pub mod unsubscribe;
pub mod upload_form;
pub mod web;

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::Request;
use axum::response::IntoResponse;
use axum::serve::ListenerExt;
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

pub use db::Db;
use error::AppError;

/// Largest accepted request body.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// Process configuration (flags with env fallbacks, see main.rs and the README's configuration table).
#[derive(Debug, Clone)]
pub struct Config {
    pub bind: String,
    pub database_url: String,
    pub web_dir: PathBuf,
    pub demo: bool,
    pub dev: bool,
    /// The secrets key file (see secrets.rs); None: beside a SQLite database, else data/portal.key.
    pub key_file: Option<PathBuf>,
    /// Reverse proxies believed about X-Forwarded-For (see client_addr.rs); none by default.
    pub trusted_proxies: client_addr::TrustedProxies,
    /// Run the notifications engine in this process (notifications.rs); off by default.
    pub notifications_engine: bool,
    /// The clinic's offset from UTC in minutes, for the engine's business days and hours.
    pub clinic_utc_offset_minutes: i32,
    /// How often the outbox delivers what is due.
    pub outbox_period: Duration,
    /// Clients reach the portal over HTTPS (TLS at a proxy in front): send HSTS.
    pub public_https: bool,
}

impl Config {
    /// The defaults of main.rs's flags for everything but where to listen and what to open.
    pub fn new(bind: &str, database_url: &str, web_dir: PathBuf) -> Config {
        Config {
            bind: bind.to_owned(),
            database_url: database_url.to_owned(),
            web_dir,
            demo: false,
            dev: false,
            key_file: None,
            trusted_proxies: Default::default(),
            notifications_engine: false,
            clinic_utc_offset_minutes: -300,
            outbox_period: Duration::from_millis(5000),
            public_https: false,
        }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub web_dir: PathBuf,
    /// Encrypts the setup wizard's secrets at rest.
    pub secrets: secrets::SecretBox,
    /// Who may tell us the client's address (client_addr.rs).
    pub trusted_proxies: std::sync::Arc<client_addr::TrustedProxies>,
    /// Security headers (security_headers.rs).
    pub headers: security_headers::HeaderPolicy,
    /// The clinic's offset from UTC in minutes (the results hold's business days, spec 03 §3).
    pub clinic_utc_offset_minutes: i32,
}

/// Opens the database (migrations, default settings, demo data when asked).
pub async fn build(config: &Config) -> Result<AppState, Box<dyn std::error::Error + Send + Sync>> {
    error::set_dev_mode(config.dev);
    let db = Db::open(&config.database_url).await?;
    settings::ensure_defaults(&db)
        .await
        .map_err(|e| e.to_string())?;
    if config.demo {
        demo::load_if_empty(&db, config.clinic_utc_offset_minutes)
            .await
            .map_err(|e| e.to_string())?;
    }
    let key_file = config
        .key_file
        .clone()
        .unwrap_or_else(|| secrets::default_key_file(&config.database_url));
    let secrets = secrets::SecretBox::open(&key_file)
        .map_err(|e| format!("cannot open the key file {}: {e}", key_file.display()))?;
    secrets::install(&secrets);
    cookies::install_public_https(config.public_https);
    // Rows from before the chain are sealed into it, and the head is signed, before serving.
    let checkpoint_key = secrets.checkpoint_key();
    audit_chain::seal_and_checkpoint(&db, &checkpoint_key)
        .await
        .map_err(|e| e.to_string())?;
    audit_chain::install(checkpoint_key);
    Ok(AppState {
        db,
        web_dir: config.web_dir.clone(),
        secrets,
        trusted_proxies: std::sync::Arc::new(config.trusted_proxies.clone()),
        headers: security_headers::HeaderPolicy {
            public_https: config.public_https,
        },
        clinic_utc_offset_minutes: config.clinic_utc_offset_minutes,
    })
}

/// The whole application: API routes, web app, and the layers every request passes.
pub fn app(state: AppState) -> Router {
    let trace = TraceLayer::new_for_http()
        // Method and path only: query strings may carry tokens; bodies and cookies are never logged.
        .make_span_with(|req: &Request<_>| {
            tracing::info_span!("http", method = %req.method(), path = %req.uri().path())
        })
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::INFO).latency_unit(tower_http::LatencyUnit::Micros));
    routes::router()
        .into_router()
        .method_not_allowed_fallback(web::method_not_allowed)
        .fallback(web::fallback)
        // Innermost: sees the handler's own response, with the denial it carries.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            denied_access::middleware,
        ))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            license::middleware,
        ))
        .layer(axum::middleware::from_fn(csrf::middleware))
        // JSON and pages above 1 KiB leave compressed when the client takes zstd, br or gzip
        // (zstd first when a client takes several, as Chromium does: it costs least);
        // the built assets are already compressed at build time (web.rs serves the .br/.gz
        // files). Level 1 of each codec: at tower-http's defaults (br 4, gzip 6) compressing a
        // 250 KB letters list cost more CPU than making it, for 7 % (br) and 20 % (gzip) fewer
        // bytes; zstd 1 was both cheaper and smaller than zstd 3
        // (bench/results-issue22-speed.md, "Compression levels").
        .layer(
            CompressionLayer::new()
                .quality(tower_http::CompressionLevel::Precise(1))
                .compress_when(DefaultPredicate::new().and(SizeAbove::new(1024))),
        )
        .layer(CatchPanicLayer::custom(
            |_panic: Box<dyn std::any::Any + Send>| {
                AppError::internal("handler panicked").into_response()
            },
        ))
        // Outside the panic catcher, so a 500 of a panic carries them too.
        .layer(axum::middleware::from_fn_with_state(
            state.headers,
            security_headers::middleware,
        ))
        .layer(trace)
        .with_state(state)
}

/// Binds, prints `listening on http://127.0.0.1:PORT` as the first stdout line, serves until
/// SIGTERM/SIGINT, then drains in-flight requests and closes the pool.
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let state = build(&config).await?;
    let db = state.db.clone();
    error_log::start_writer(&db);
    let listener = tokio::net::TcpListener::bind(&config.bind).await?;
    let addr = listener.local_addr()?;
    // No Nagle: a compressed answer leaves in several writes, and Nagle would hold a small last
    // one until the client acknowledges the one before (its delayed ACK: up to ~40 ms).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY not set");
        }
    });
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://127.0.0.1:{}", addr.port())?;
        out.flush()?;
    }
    tracing::info!(%addr, engine = db.engine(), demo = config.demo, "portal-api started");
    // The background services (services/): each runs as its desired state says;
    // --notifications-engine lets this instance run the Timer Service (the notifications engine)
    // and --clinic-utc-offset-minutes places its business days and hours.
    let engine = config
        .notifications_engine
        .then_some(notifications::EngineConfig {
            clinic_offset_minutes: config.clinic_utc_offset_minutes,
        });
    let services = services::start(
        &db,
        services::RunConfig {
            outbox_period: config.outbox_period,
            engine,
            clinic_offset_minutes: config.clinic_utc_offset_minutes,
        },
    )
    .await;
    // Signed checkpoints while rows arrive (audit_chain.rs), besides every 1000th row's.
    let checkpoints = tokio::spawn({
        let (db, key) = (db.clone(), state.secrets.checkpoint_key());
        async move {
            loop {
                tokio::time::sleep(audit_chain::CHECKPOINT_PERIOD).await;
                if let Err(e) = audit_chain::seal_and_checkpoint(&db, &key).await {
                    tracing::warn!(error = %e, "audit checkpoint failed");
                }
            }
        }
    });
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
    tracing::info!("shutting down");
    services.stop();
    checkpoints.abort();
    tokio::time::timeout(Duration::from_secs(5), db.close())
        .await
        .ok();
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        tokio::signal::ctrl_c().await.ok();
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
