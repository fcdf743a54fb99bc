//! One pass of the Integration Service: claim due deliveries, make them, log the attempt.
//!
//! - Maglink: the file is written beside its final name and renamed into place (a reader of the
//!   queue folder never sees half a message); the name comes from the event's key, so a retry
//!   after a crash rewrites the same file rather than adding one.
//! - Webhook: POST of the body fixed at the event, `Idempotency-Key` (the delivery's key), the
//!   authorization of its type, a 10 s timeout; any 2xx is accepted, anything else is retried
//!   with backoff (wasm-core `retry_delay_ms`) until `MAX_DELIVERY_ATTEMPTS`. In test mode
//!   nothing is sent: the attempt records what would have been.
//! - Action: see [`super::actions`].

use std::path::Path;
use std::time::{Duration, Instant};

use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use wasm_core::settings::survey_webhook_integration::{SurveyWebhookIntegration, WebHook};
use wasm_core::survey_integration::{
    retry_delay_ms, signature_base, signature_header_value, AUTH_API_KEY, AUTH_BASIC, AUTH_BEARER,
    AUTH_HMAC, AUTH_NONE, DEFAULT_API_KEY_HEADER, IDEMPOTENCY_HEADER, MAX_DELIVERY_ATTEMPTS,
    SIGNATURE_HEADER, TIMESTAMP_HEADER,
};

use super::{actions, hex, QueueFile, WebhookRequest, KIND_ACTION, KIND_MAGLINK, KIND_WEBHOOK};
use crate::db::Db;
use crate::error::AppResult;
use crate::outbox::Clock;
use crate::settings;
use crate::store::integrations::{self as store, DeliveryRow, Next};

/// How long a claim holds before another instance may take the row over.
const LEASE_MS: i64 = 5 * 60_000;
/// A webhook request's time limit.
pub const WEBHOOK_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryReport {
    pub delivered: usize,
    pub test_recorded: usize,
    pub retrying: usize,
    pub failed: usize,
}

/// The outcome of one attempt.
pub(super) struct Attempt {
    ok: bool,
    outcome: &'static str,
    status_code: Option<i64>,
    detail: String,
}

impl Attempt {
    pub(super) fn ok(outcome: &'static str, status_code: Option<i64>, detail: String) -> Attempt {
        Attempt {
            ok: true,
            outcome,
            status_code,
            detail,
        }
    }
    pub(super) fn failed(status_code: Option<i64>, detail: String) -> Attempt {
        Attempt {
            ok: false,
            outcome: "Failed",
            status_code,
            detail,
        }
    }
}

/// The HTTP client of the webhooks (no redirects: a redirect is not an acceptance).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(WEBHOOK_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// Claims and makes what is due at `clock.now_ms()`. Failures are retried later; the pass's
/// error (for the service status) names the last one.
pub async fn deliver_due(
    db: &Db,
    clock: &dyn Clock,
    http: &reqwest::Client,
    limit: i64,
) -> AppResult<Result<DeliveryReport, String>> {
    let now = clock.now_ms();
    let rows = store::claim_due(db, now, now + LEASE_MS, limit).await?;
    let mut report = DeliveryReport::default();
    let mut last_error = None;
    for row in rows {
        let started = Instant::now();
        let attempt = match row.kind.as_str() {
            KIND_MAGLINK => maglink(&row).await,
            KIND_WEBHOOK => webhook(db, http, &row, now).await,
            KIND_ACTION => actions::run(db, &row).await,
            other => Attempt::failed(None, format!("unknown delivery kind {other}")),
        };
        let took = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
        let at = clock.now_ms();
        let next = if attempt.ok {
            if attempt.outcome == "TestMode" {
                report.test_recorded += 1;
                Next::Done("TestRecorded")
            } else {
                report.delivered += 1;
                Next::Done("Delivered")
            }
        } else {
            // Error Logs: an ERROR event becomes a row (error_log.rs).
            tracing::error!(
                delivery_id = row.id,
                kind = %row.kind,
                attempt = row.attempts,
                "survey integration delivery failed: {}",
                attempt.detail
            );
            last_error = Some(format!("{} {}: {}", row.kind, row.target, attempt.detail));
            if row.attempts >= MAX_DELIVERY_ATTEMPTS {
                report.failed += 1;
                Next::GiveUp
            } else {
                report.retrying += 1;
                Next::Retry(at + retry_delay_ms(row.attempts))
            }
        };
        store::finish_attempt(
            db,
            &row,
            at,
            attempt.outcome,
            attempt.status_code,
            took,
            &attempt.detail,
            next,
        )
        .await?;
    }
    Ok(match last_error {
        Some(e) => Err(e),
        None => Ok(report),
    })
}

/// Writes the queue file: a hidden temporary file in the folder, flushed, then renamed.
async fn maglink(row: &DeliveryRow) -> Attempt {
    let file: QueueFile = match serde_json::from_str(&row.payload) {
        Ok(f) => f,
        Err(e) => return Attempt::failed(None, format!("stored message unreadable: {e}")),
    };
    if file.folder.is_empty() {
        return Attempt::failed(None, "no interface queue path is configured".to_owned());
    }
    let folder = Path::new(&file.folder).to_owned();
    let result = tokio::task::spawn_blocking(move || write_atomically(&folder, &file)).await;
    match result {
        Ok(Ok(path)) => Attempt::ok("Written", None, path),
        Ok(Err(e)) => Attempt::failed(None, e),
        Err(e) => Attempt::failed(None, format!("the write stopped: {e}")),
    }
}

fn write_atomically(folder: &Path, file: &QueueFile) -> Result<String, String> {
    use std::io::Write;
    match std::fs::metadata(folder) {
        Ok(m) if m.is_dir() => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "interface queue folder {} is missing",
                folder.display()
            ))
        }
        // A path through a regular file, a file in the folder's place, no permission to look:
        // nothing can be written there, whoever the portal runs as.
        Ok(_) => {
            return Err(format!(
                "interface queue folder {} is not writable: not a folder",
                folder.display()
            ))
        }
        Err(e) => {
            return Err(format!(
                "interface queue folder {} is not writable: {e}",
                folder.display()
            ))
        }
    }
    let target = folder.join(&file.file_name);
    let temp = folder.join(format!(".{}.tmp", file.file_name));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&temp)?;
        f.write_all(file.content.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&temp, &target)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!(
            "interface queue folder {} is not writable: {e}",
            folder.display()
        )
    })?;
    Ok(target.display().to_string())
}

/// Sends (or in test mode records) a webhook request.
async fn webhook(db: &Db, http: &reqwest::Client, row: &DeliveryRow, now: i64) -> Attempt {
    let request: WebhookRequest = match serde_json::from_str(&row.payload) {
        Ok(r) => r,
        Err(e) => return Attempt::failed(None, format!("stored request unreadable: {e}")),
    };
    let hooks = match settings::get::<SurveyWebhookIntegration>(db).await {
        Ok(s) => s.web_hooks,
        Err(e) => return Attempt::failed(None, format!("settings unreadable: {e}")),
    };
    let secret = match credential_of(&hooks, &request) {
        Ok(secret) => secret,
        Err(why) => return Attempt::failed(None, why),
    };
    let headers = request_headers(&request, &row.idempotency_key, &secret, now);
    if row.test_mode {
        let shown: Vec<String> = headers
            .iter()
            .map(|(n, v)| format!("{n}: {}", redacted(n, v, &request)))
            .collect();
        return Attempt::ok(
            "TestMode",
            None,
            format!(
                "Test mode, not sent: POST {}\n{}\n\n{}",
                if request.url.is_empty() {
                    "(no Url)"
                } else {
                    request.url.as_str()
                },
                shown.join("\n"),
                request.body
            ),
        );
    }
    let mut call = http.post(&request.url).body(request.body.clone());
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    {
        call = call.header("Content-Type", "application/json");
    }
    for (name, value) in &headers {
        call = call.header(name.as_str(), value.as_str());
    }
    match call.send().await {
        Ok(response) => {
            let code = i64::from(response.status().as_u16());
            if response.status().is_success() {
                Attempt::ok("Delivered", Some(code), format!("HTTP {code}"))
            } else {
                Attempt::failed(Some(code), format!("HTTP {code} from {}", request.url))
            }
        }
        Err(e) if e.is_timeout() => Attempt::failed(
            None,
            format!(
                "no answer from {} within {} s",
                request.url,
                WEBHOOK_TIMEOUT.as_secs()
            ),
        ),
        Err(e) => Attempt::failed(None, format!("{} unreachable: {e}", request.url)),
    }
}

/// The clear credential of the request's own webhook (found by its id). A webhook removed
/// since the event took its credential with it: a request that needs one is not sent without.
fn credential_of(hooks: &[WebHook], request: &WebhookRequest) -> Result<String, String> {
    let own = hooks
        .iter()
        .find(|h| !request.webhook_id.is_empty() && h.id == request.webhook_id);
    match own {
        Some(hook) => Ok(crate::secrets::reveal(&hook.authorization_secret)),
        None if request.authorization_type == AUTH_NONE
            || request.authorization_type.is_empty() =>
        {
            Ok(String::new())
        }
        None => Err(format!(
            "the webhook of {} is no longer configured: its credential is gone",
            request.url
        )),
    }
}

/// The request's headers: the configured ones, the idempotency key, and the authorization of
/// its type (HMAC: a timestamp and the signature of `timestamp.body`).
pub fn request_headers(
    request: &WebhookRequest,
    idempotency_key: &str,
    secret: &str,
    now: i64,
) -> Vec<(String, String)> {
    let mut headers = request.headers.clone();
    headers.push((IDEMPOTENCY_HEADER.to_owned(), idempotency_key.to_owned()));
    match request.authorization_type.as_str() {
        AUTH_BASIC => {
            let pair = format!("{}:{secret}", request.authorization_name);
            let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
            headers.push(("Authorization".to_owned(), format!("Basic {encoded}")));
        }
        AUTH_BEARER => headers.push(("Authorization".to_owned(), format!("Bearer {secret}"))),
        AUTH_API_KEY => {
            let name = request.authorization_name.trim();
            let name = if name.is_empty() {
                DEFAULT_API_KEY_HEADER
            } else {
                name
            };
            headers.push((name.to_owned(), secret.to_owned()));
        }
        AUTH_HMAC => {
            let timestamp = (now / 1000).to_string();
            headers.push((TIMESTAMP_HEADER.to_owned(), timestamp.clone()));
            headers.push((
                SIGNATURE_HEADER.to_owned(),
                signature_header_value(&sign(secret, &signature_base(&timestamp, &request.body))),
            ));
        }
        _ => {}
    }
    headers
}

/// HMAC-SHA256 of `text` under `key`, lower-case hex.
pub fn sign(key: &str, text: &str) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(text.as_bytes());
    hex(&mac.finalize().into_bytes())
}

/// A header's value as the test-mode record shows it: the credential withheld.
fn redacted<'a>(name: &str, value: &'a str, request: &WebhookRequest) -> &'a str {
    let api_key = request.authorization_type == AUTH_API_KEY
        && (name.eq_ignore_ascii_case(request.authorization_name.trim())
            || name.eq_ignore_ascii_case(DEFAULT_API_KEY_HEADER));
    if name.eq_ignore_ascii_case("Authorization") || api_key {
        "(withheld)"
    } else {
        value
    }
}
