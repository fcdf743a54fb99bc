//! Site usage events (spec 03 §3: UrlHit=0 on a page change, DocumentLoaded=13 when a letter or
//! report opens), each with the time, the client's address, and the operating system and
//! browser read from its User-Agent by `woothee`.

use axum::http::{header::USER_AGENT, HeaderMap};

use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db};
use crate::error::AppResult;
use crate::store::site_usage::{self as store, NewEvent};

pub use wasm_core::site_usage::{DOCUMENT_LOADED, URL_HIT};

/// (operating system, browser) of a User-Agent: "Windows 10", "Chrome 120"; "Unknown" for what
/// the parser does not recognise.
pub fn describe_agent(user_agent: &str) -> (String, String) {
    let known = |s: &str| !s.is_empty() && s != woothee::woothee::VALUE_UNKNOWN;
    match woothee::parser::Parser::new().parse(user_agent) {
        Some(r) => {
            let os = if known(r.os) {
                r.os.to_owned()
            } else {
                "Unknown".to_owned()
            };
            let major = r.version.split('.').next().unwrap_or("");
            let browser = match (known(r.name), known(major)) {
                (true, true) => format!("{} {major}", r.name),
                (true, false) => r.name.to_owned(),
                _ => "Unknown".to_owned(),
            };
            (os, browser)
        }
        None => ("Unknown".to_owned(), "Unknown".to_owned()),
    }
}

/// Who caused an event and what it was about.
pub struct Event<'a> {
    pub event_type: i64,
    pub user_id: Option<i64>,
    pub patient_id: Option<i64>,
    /// The letter or report opened (DocumentLoaded); empty otherwise.
    pub target_id: &'a str,
    pub url: &'a str,
}

/// Stores the event with the caller's address and agent, counted in its hour.
pub async fn record(
    db: &Db,
    event: Event<'_>,
    peer: &ClientAddr,
    headers: &HeaderMap,
) -> AppResult<()> {
    let agent = headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    // An agent string is the client's to choose: bounded before it is parsed or stored.
    let agent: String = agent.chars().take(512).collect();
    let (os, browser) = describe_agent(&agent);
    let ip = peer.ip().to_string();
    let mut tx = db.begin().await?;
    store::insert(
        &mut tx,
        &NewEvent {
            created_at: now_ms(),
            event_type: event.event_type,
            user_id: event.user_id,
            patient_id: event.patient_id,
            target_id: event.target_id,
            url: event.url,
            ip: &ip,
            os: &os,
            browser: &browser,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::describe_agent;

    #[test]
    fn agents() {
        assert_eq!(
            describe_agent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"),
            ("Windows 10".to_owned(), "Chrome 120".to_owned())
        );
        let (os, browser) = describe_agent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1");
        assert_eq!((os.as_str(), browser.as_str()), ("iPhone", "Safari 17"));
        assert_eq!(
            describe_agent(""),
            ("Unknown".to_owned(), "Unknown".to_owned())
        );
    }
}
