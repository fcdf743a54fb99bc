//! Error Logs (spec 01 §2.7, §3): every ERROR event of the server, not only panics, stored with
//! EventDateTime, EventLevel, EventMessage, RequestUrl, ErrorMethod and ErrorClass.
//!
//! A tracing layer ([`ErrorLogLayer`]) turns each ERROR event into a row, redacts anything that
//! looks like a secret ([`redact`]) and hands it to a bounded channel with `try_send`: a request
//! never waits on the log (when the writer falls 1024 rows behind, rows are dropped and counted).
//! [`start_writer`] stores them once the database is open. The request's path and method come
//! from the `http` span (lib.rs makes it with the path only: query strings may carry tokens);
//! the error id is the one the 500 dialog shows.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use tokio::sync::mpsc;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use crate::db::{now_ms, Db};
use crate::store::audit_logs::{self, ErrorRow};

const CAPACITY: usize = 1024;

static SENDER: OnceLock<mpsc::Sender<ErrorRow>> = OnceLock::new();
static RECEIVER: Mutex<Option<mpsc::Receiver<ErrorRow>>> = Mutex::new(None);
static DROPPED: AtomicU64 = AtomicU64::new(0);

fn sender() -> &'static mpsc::Sender<ErrorRow> {
    SENDER.get_or_init(|| {
        let (tx, rx) = mpsc::channel(CAPACITY);
        *RECEIVER.lock().unwrap_or_else(|e| e.into_inner()) = Some(rx);
        tx
    })
}

/// The layer main.rs adds to the subscriber.
pub struct ErrorLogLayer;

/// The `http` span's request line, kept in the span's extensions.
struct RequestLine {
    method: String,
    path: String,
}

#[derive(Default)]
struct Fields {
    message: String,
    error_id: Option<String>,
    method: Option<String>,
    path: Option<String>,
    others: Vec<(String, String)>,
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.put(field.name(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.put(field.name(), format!("{value:?}"));
    }
}

impl Fields {
    fn put(&mut self, name: &str, value: String) {
        match name {
            "message" => self.message = value,
            "error_id" => self.error_id = Some(value),
            "method" => self.method = Some(value),
            "path" => self.path = Some(value),
            other => self.others.push((other.to_owned(), value)),
        }
    }
}

impl<S> Layer<S> for ErrorLogLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: Context<'_, S>,
    ) {
        if attrs.metadata().name() != "http" {
            return;
        }
        let mut f = Fields::default();
        attrs.record(&mut f);
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(RequestLine {
                method: f.method.unwrap_or_default(),
                path: f.path.unwrap_or_default(),
            });
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        if *event.metadata().level() != Level::ERROR {
            return;
        }
        let mut f = Fields::default();
        event.record(&mut f);
        let (mut method, mut path) = (String::new(), String::new());
        if let Some(scope) = ctx.event_scope(event) {
            for span in scope {
                if let Some(line) = span.extensions().get::<RequestLine>() {
                    method = line.method.clone();
                    path = line.path.clone();
                    break;
                }
            }
        }
        let mut message = f.message;
        for (k, v) in &f.others {
            message.push_str(&format!(" {k}={v}"));
        }
        let row = ErrorRow {
            id: 0,
            error_id: f.error_id,
            created_at: now_ms(),
            level: "Error".to_owned(),
            message: redact(message.trim()),
            request_url: redact(&path),
            method,
            error_class: event.metadata().target().to_owned(),
        };
        if sender().try_send(row).is_err() {
            DROPPED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Stores the queued rows as they come (once per process; a second call does nothing).
pub fn start_writer(db: &Db) {
    sender();
    let Some(mut rx) = RECEIVER.lock().unwrap_or_else(|e| e.into_inner()).take() else {
        return;
    };
    let db = db.clone();
    tokio::spawn(async move {
        while let Some(row) = rx.recv().await {
            // Not `tracing::error!`: a failing store would log into itself.
            if let Err(e) = audit_logs::insert_error(&db, &row).await {
                eprintln!("portal-api: cannot store an error log row: {e}");
            }
        }
    });
}

/// Rows dropped because the writer fell behind.
pub fn dropped() -> u64 {
    DROPPED.load(Ordering::Relaxed)
}

/// Words after which a value is a secret.
const SECRET_WORDS: [&str; 12] = [
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "key",
    "code",
    "pin",
    "otp",
    "authorization",
    "cookie",
    "apikey",
];

/// The text with secrets withheld: a value after a secret word (`password=...`, `token: ...`,
/// `"Pin":"1234"`), a URL's user:password, our own encrypted values (`enc:v1:...`), and any long
/// run of token characters (24+ letters, digits, `+/=_-` mixed with digits: keys, hashes, JWTs).
pub fn redact(text: &str) -> String {
    let text = &withhold_after(&withhold_url_credentials(text), "enc:v1:");
    let mut out = String::with_capacity(text.len());
    let mut secret_next = false;
    for piece in split_keep(text) {
        let word = piece
            .trim_matches(|c: char| !c.is_ascii_alphanumeric())
            .to_ascii_lowercase();
        let is_token = piece.chars().any(|c| c.is_ascii_alphanumeric());
        if secret_next && is_token {
            out.push_str("***");
            secret_next = false;
            continue;
        }
        if is_token && SECRET_WORDS.iter().any(|w| word.ends_with(w)) {
            out.push_str(piece);
            secret_next = true;
            continue;
        }
        if is_token {
            out.push_str(&redact_token(piece));
            // A word that is not followed by `=`/`:` soon leaves the secret state.
            secret_next = false;
        } else {
            out.push_str(piece);
            // Separators (`=`, `:`, quotes, spaces) keep waiting for the value.
            if piece.contains(['\n', ',', ';', '&']) {
                secret_next = false;
            }
        }
    }
    out
}

/// Splits into runs of token characters and runs of other characters, keeping both.
fn split_keep(text: &str) -> Vec<&str> {
    let is_tok = |c: char| c.is_ascii_alphanumeric() || "+/=_-.@:%".contains(c);
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_tok: Option<bool> = None;
    for (i, c) in text.char_indices() {
        // `=` and `:` separate a key from its value: their own pieces.
        let t = is_tok(c) && c != '=' && c != ':';
        if in_tok != Some(t) || c == '=' || c == ':' {
            if i > start {
                parts.push(&text[start..i]);
            }
            start = i;
            in_tok = Some(t);
        }
    }
    if start < text.len() {
        parts.push(&text[start..]);
    }
    parts
}

/// `scheme://user:password@host` -> `scheme://***@host`.
fn withhold_url_credentials(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        out.push_str(&rest[..i + 3]);
        rest = &rest[i + 3..];
        let end = rest
            .find(|c: char| c == '/' || c.is_whitespace())
            .unwrap_or(rest.len());
        if let Some(at) = rest[..end].rfind('@') {
            out.push_str("***");
            rest = &rest[at..];
        }
    }
    out.push_str(rest);
    out
}

/// `{marker}value` -> `{marker}***` (the value: up to the next space or quote).
fn withhold_after(text: &str, marker: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(marker) {
        out.push_str(&rest[..i + marker.len()]);
        rest = &rest[i + marker.len()..];
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
            .unwrap_or(rest.len());
        out.push_str("***");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn redact_token(t: &str) -> String {
    let long = t.chars().filter(|c| c.is_ascii_alphanumeric()).count() >= 24
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars().any(|c| c.is_ascii_alphabetic());
    if long {
        "***".to_owned()
    } else {
        t.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_withheld() {
        for (text, secret) in [
            ("login failed password=Hunter2!x for jane", "Hunter2"),
            ("smtp auth: Password: s3cret-Pa55", "s3cret"),
            ("{\"Pin\":\"7305\",\"Name\":\"x\"}", "7305"),
            ("reset key=abcDEF123456 expired", "abcDEF123456"),
            ("verification code 482913 sent", "482913"),
            (
                "token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc123",
                "eyJhbGci",
            ),
            (
                "connect postgres://portal:pw-Secret@db.local/portal failed",
                "pw-Secret",
            ),
            (
                "value enc:v1:QUJDREVGR0hJSktMTU5PUFFSU1RVVldY failed",
                "QUJDREVG",
            ),
            (
                "hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                "9f86d081",
            ),
        ] {
            let r = redact(text);
            assert!(!r.contains(secret), "{text} -> {r}");
            assert!(r.contains("***"), "{text} -> {r}");
        }
    }

    #[test]
    fn ordinary_text_stays() {
        let t = "database error: no such table: users (row 42)";
        assert_eq!(redact(t), t);
        assert_eq!(
            redact("GET /api/documents/letterPdf"),
            "GET /api/documents/letterPdf"
        );
    }
}
