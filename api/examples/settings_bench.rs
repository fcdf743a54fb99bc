//! Settings engine latency under load (issue 13): CONNECTIONS clients for SECONDS seconds against
//! a running portal (127.0.0.1 only), signed in as the demo program manager.
//!
//! - GET: every client reads GET /api/configurationForm/{group}, round-robin over the groups.
//! - PUT: every client owns one group (round-robin, so with more clients than groups some share
//!   one) and saves it again and again, each time flipping one of its switches, at the version its
//!   last answer gave. A shared group makes real conflicts: a 409 is counted apart, and the
//!   client goes on from the version the 409 carries.
//!
//! Prints one JSON line: {"get": {...}, "put": {...}} with count, p50_ms, p99_ms, max_ms,
//! errors (5xx and transport), and for PUT conflicts (409) and refused (another 4xx: a flip
//! that group's rules refuse in that state).
//!
//!   cargo run --release -p portal-api --example settings_bench -- BASE_URL [CONNECTIONS] [SECONDS]

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE, COOKIE, SET_COOKIE};
use serde_json::{json, Map, Value};

const CSRF: &str = "bench";

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    /// 5xx and transport failures.
    errors: u64,
    conflicts: u64,
    /// 4xx other than 409: a flip the group's rules refuse in that document's state.
    refused: u64,
}

fn summary(mut t: Tally, with_conflicts: bool) -> Value {
    t.latencies_us.sort_unstable();
    let at = |q: f64| -> f64 {
        if t.latencies_us.is_empty() {
            return 0.0;
        }
        let i = ((t.latencies_us.len() as f64 - 1.0) * q).round() as usize;
        t.latencies_us[i] as f64 / 1000.0
    };
    let mut out = json!({
        "count": t.latencies_us.len(),
        "p50_ms": at(0.50),
        "p99_ms": at(0.99),
        "max_ms": at(1.0),
        "errors": t.errors,
    });
    if with_conflicts {
        out["conflicts"] = json!(t.conflicts);
        out["refused"] = json!(t.refused);
    }
    out
}

async fn json_of(response: reqwest::Response) -> Value {
    let text = response.text().await.unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

async fn sign_in(client: &reqwest::Client, base: &str) -> Result<String, String> {
    let response = client
        .post(format!("{base}/api/staffUser/login"))
        .header(CONTENT_TYPE, "application/json")
        .header(COOKIE, format!("portal_csrf={CSRF}"))
        .header("X-CSRF-Token", CSRF)
        .body(r#"{"usernameOrEmail":"manager","password":"Portal!2026"}"#)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let cookies: Vec<String> = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .filter(|pair| !pair.starts_with("portal_csrf="))
        .map(str::to_owned)
        .collect();
    if !response.status().is_success() || cookies.is_empty() {
        return Err(format!("sign-in failed: {}", response.status()));
    }
    Ok(format!("{}; portal_csrf={CSRF}", cookies.join("; ")))
}

/// The form groups (every name the engine knows that GET answers) with a switch the group lets
/// flip both ways from its stored state (some switches require other fields when on).
async fn groups(client: &reqwest::Client, base: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in wasm_core::settings::GROUP_NAMES {
        let url = format!("{base}/api/configurationForm/{name}");
        let Ok(response) = client.get(&url).send().await else {
            continue;
        };
        let mut doc = json_of(response).await;
        let switches: Vec<String> = doc["Settings"]
            .as_object()
            .map(|s| {
                s.iter()
                    .filter(|(_, v)| v.is_boolean())
                    .map(|(k, _)| k.clone())
                    .collect()
            })
            .unwrap_or_default();
        for field in switches {
            let mut both_ways = true;
            for _ in 0..2 {
                let mut settings = doc["Settings"].as_object().cloned().unwrap_or_default();
                let flipped = !settings[&field].as_bool().unwrap_or(false);
                settings.insert(field.clone(), Value::Bool(flipped));
                let body = json!({"Version": doc["Version"], "Settings": settings}).to_string();
                let answer = client
                    .put(&url)
                    .header(CONTENT_TYPE, "application/json")
                    .header("X-CSRF-Token", CSRF)
                    .body(body)
                    .send()
                    .await;
                match answer {
                    Ok(r) if r.status().is_success() => doc = json_of(r).await,
                    _ => {
                        both_ways = false;
                        break;
                    }
                }
            }
            if both_ways {
                out.push(((*name).to_owned(), field));
                break;
            }
        }
    }
    out
}

async fn get_loop(
    client: reqwest::Client,
    base: Arc<str>,
    names: Arc<Vec<(String, String)>>,
    start: usize,
    until: Instant,
) -> Tally {
    let mut tally = Tally::default();
    let mut i = start;
    while Instant::now() < until {
        let (name, _) = &names[i % names.len()];
        i += 1;
        let t = Instant::now();
        let ok = match client
            .get(format!("{base}/api/configurationForm/{name}"))
            .send()
            .await
        {
            Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
            Err(_) => false,
        };
        tally.latencies_us.push(t.elapsed().as_micros() as u64);
        if !ok {
            tally.errors += 1;
        }
    }
    tally
}

async fn put_loop(
    client: reqwest::Client,
    base: Arc<str>,
    group: (String, String),
    until: Instant,
) -> Tally {
    let (name, field) = group;
    let url = format!("{base}/api/configurationForm/{name}");
    let mut tally = Tally::default();
    let mut doc: Value = match client.get(&url).send().await {
        Ok(r) => json_of(r).await,
        Err(_) => Value::Null,
    };
    while Instant::now() < until {
        let mut settings: Map<String, Value> =
            doc["Settings"].as_object().cloned().unwrap_or_default();
        let flipped = !settings
            .get(&field)
            .and_then(Value::as_bool)
            .unwrap_or(false);
        settings.insert(field.clone(), Value::Bool(flipped));
        let body = json!({"Version": doc["Version"], "Settings": settings}).to_string();
        let t = Instant::now();
        let answer = client
            .put(&url)
            .header(CONTENT_TYPE, "application/json")
            .header("X-CSRF-Token", CSRF)
            .body(body)
            .send()
            .await;
        let (status, text) = match answer {
            Ok(r) => (r.status().as_u16(), r.text().await.unwrap_or_default()),
            Err(_) => (0, String::new()),
        };
        tally.latencies_us.push(t.elapsed().as_micros() as u64);
        let parsed: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        match status {
            200 => doc = parsed,
            409 => {
                tally.conflicts += 1;
                doc = parsed["Current"].clone();
            }
            _ => {
                if (400..500).contains(&status) {
                    tally.refused += 1;
                } else {
                    tally.errors += 1;
                }
                if let Ok(r) = client.get(&url).send().await {
                    doc = json_of(r).await;
                }
            }
        }
    }
    tally
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let base: Arc<str> = Arc::from(
        args.get(1)
            .cloned()
            .ok_or("usage: settings_bench BASE_URL [CONNECTIONS] [SECONDS]")?
            .trim_end_matches('/'),
    );
    if !(base.starts_with("http://127.") || base.starts_with("http://localhost")) {
        return Err(
            "the benchmark only loads a portal on this machine (http://127.x or localhost)".into(),
        );
    }
    let connections: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(32)
        .clamp(1, 256);
    let seconds: u64 = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
        .clamp(1, 120);

    let cookie = sign_in(&reqwest::Client::new(), &base).await?;
    let mut headers = HeaderMap::new();
    headers.insert(
        COOKIE,
        HeaderValue::from_str(&cookie).map_err(|e| e.to_string())?,
    );
    let client = reqwest::Client::builder()
        .default_headers(headers)
        .pool_max_idle_per_host(connections)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| e.to_string())?;
    let names = Arc::new(groups(&client, &base).await);
    if names.is_empty() {
        return Err("no settings group answered".into());
    }

    let until = Instant::now() + Duration::from_secs(seconds);
    let gets: Vec<_> = (0..connections)
        .map(|i| {
            tokio::spawn(get_loop(
                client.clone(),
                base.clone(),
                names.clone(),
                i,
                until,
            ))
        })
        .collect();
    let mut get = Tally::default();
    for task in gets {
        let t = task.await.map_err(|e| e.to_string())?;
        get.latencies_us.extend(t.latencies_us);
        get.errors += t.errors;
    }

    let until = Instant::now() + Duration::from_secs(seconds);
    let puts: Vec<_> = (0..connections)
        .map(|i| {
            tokio::spawn(put_loop(
                client.clone(),
                base.clone(),
                names[i % names.len()].clone(),
                until,
            ))
        })
        .collect();
    let mut put = Tally::default();
    for task in puts {
        let t = task.await.map_err(|e| e.to_string())?;
        put.latencies_us.extend(t.latencies_us);
        put.errors += t.errors;
        put.conflicts += t.conflicts;
        put.refused += t.refused;
    }
    println!(
        "{}",
        json!({"groups": names.len(), "connections": connections, "seconds": seconds, "get": summary(get, false), "put": summary(put, true)})
    );
    Ok(())
}
