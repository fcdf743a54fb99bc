//! Issue 22 "Bounded input": every operation of the generated OpenAPI document is sent long
//! (60,000 characters), empty, Unicode, NUL and wrong-typed values in its path parameters, its
//! query parameters and every field of its JSON body (built from the body's schema), as a program
//! manager and anonymously, and never answers a 5xx. Both engines.

use api_tests::*;

const LONG: usize = 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Long,
    Empty,
    Unicode,
    Nul,
    WrongType,
}

const VARIANTS: [Variant; 5] = [
    Variant::Long,
    Variant::Empty,
    Variant::Unicode,
    Variant::Nul,
    Variant::WrongType,
];

/// A text of the variant (path and query parameters, string fields).
fn text(v: Variant) -> String {
    match v {
        Variant::Long => "a".repeat(LONG),
        Variant::Empty => String::new(),
        Variant::Unicode => "Zoë 漢字 🙂 \u{202e}evil\u{202c} ﷽".to_owned(),
        Variant::Nul => "a\u{0}b".to_owned(),
        Variant::WrongType => "12345".to_owned(),
    }
}

/// Follows `$ref` (a JSON pointer into the document).
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    let mut s = schema;
    for _ in 0..16 {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                s = doc
                    .pointer(r.trim_start_matches('#'))
                    .unwrap_or(&Value::Null);
            }
            None => break,
        }
    }
    s
}

/// The schema's main type (the first non-null one; through anyOf/oneOf/allOf).
fn kind(doc: &Value, schema: &Value) -> String {
    let s = resolve(doc, schema);
    match s.get("type") {
        Some(Value::String(t)) => return t.clone(),
        Some(Value::Array(ts)) => {
            if let Some(t) = ts.iter().filter_map(Value::as_str).find(|t| *t != "null") {
                return t.to_owned();
            }
        }
        _ => {}
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = s.get(key).and_then(Value::as_array) {
            for sub in list {
                let k = kind(doc, sub);
                if k != "null" && !k.is_empty() {
                    return k;
                }
            }
        }
    }
    if s.get("properties").is_some() {
        return "object".to_owned();
    }
    String::new()
}

/// Every property of an object schema (allOf merged, anyOf/oneOf's first object).
fn properties(doc: &Value, schema: &Value) -> Vec<(String, Value)> {
    let s = resolve(doc, schema);
    let mut out: Vec<(String, Value)> = s
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(list) = s.get(key).and_then(Value::as_array) {
            for sub in list {
                out.extend(properties(doc, sub));
                if key != "allOf" && !out.is_empty() {
                    break;
                }
            }
        }
    }
    out
}

/// A value of `schema` with every leaf set to the variant (depth-bounded).
fn value(doc: &Value, schema: &Value, v: Variant, depth: usize) -> Value {
    let k = kind(doc, schema);
    if depth > 6 {
        return Value::Null;
    }
    match (k.as_str(), v) {
        ("string", Variant::WrongType) => json!(12345),
        ("string", _) => json!(text(v)),
        ("integer", Variant::WrongType) | ("number", Variant::WrongType) => json!("abc"),
        ("integer", Variant::Long) => json!(i64::MAX),
        ("integer", Variant::Unicode) => json!(-1),
        ("integer", _) => json!(0),
        ("number", Variant::Long) => json!(f64::MAX),
        ("number", _) => json!(-0.5),
        ("boolean", Variant::WrongType) => json!("yes"),
        ("boolean", _) => json!(true),
        ("array", Variant::WrongType) => json!({"a": 1}),
        ("array", Variant::Empty) => json!([]),
        ("array", _) => {
            let items = resolve(doc, schema)
                .get("items")
                .cloned()
                .unwrap_or(json!({"type": "string"}));
            json!([value(doc, &items, v, depth + 1)])
        }
        ("object", Variant::WrongType) => json!([1, 2]),
        ("object", _) => {
            let mut map = serde_json::Map::new();
            for (name, sub) in properties(doc, schema) {
                map.insert(name, value(doc, &sub, v, depth + 1));
            }
            Value::Object(map)
        }
        (_, Variant::WrongType) => json!([]),
        _ => json!(text(v)),
    }
}

struct Operation {
    method: Method,
    path: String,
    path_params: Vec<String>,
    query_params: Vec<String>,
    body: Option<Value>,
}

fn operations(doc: &Value) -> Vec<Operation> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().unwrap() {
            let Ok(method) = Method::from_bytes(method.to_uppercase().as_bytes()) else {
                continue;
            };
            let params: Vec<&Value> = op
                .get("parameters")
                .and_then(Value::as_array)
                .map(|p| p.iter().map(|p| resolve(doc, p)).collect())
                .unwrap_or_default();
            let names = |place: &str| {
                params
                    .iter()
                    .filter(|p| p["in"] == json!(place))
                    .filter_map(|p| p["name"].as_str().map(str::to_owned))
                    .collect::<Vec<_>>()
            };
            let body = op
                .pointer("/requestBody/content")
                .and_then(Value::as_object)
                .and_then(|c| c.values().next())
                .and_then(|m| m.get("schema"))
                .cloned();
            ops.push(Operation {
                method,
                path: path.clone(),
                path_params: names("path"),
                query_params: names("query"),
                body,
            });
        }
    }
    ops
}

fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Keeps at most `budget` long strings in `v` (the rest shortened), so a body stays under the
/// server's 1 MiB limit (a larger one is refused with 413 before it is read, and the connection
/// closed while the client still sends).
fn within_limit(v: &mut Value, budget: &mut usize) {
    match v {
        Value::String(s) if s.len() >= LONG => {
            if *budget == 0 {
                *s = "a".to_owned();
            } else {
                *budget -= 1;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| within_limit(i, budget)),
        Value::Object(map) => map.values_mut().for_each(|i| within_limit(i, budget)),
        _ => {}
    }
}

/// The requests of one operation: (path and query, JSON body).
fn requests(doc: &Value, op: &Operation) -> Vec<(String, Option<Value>)> {
    let fill = |path_value: &dyn Fn(&str) -> String| {
        let mut p = op.path.clone();
        for name in &op.path_params {
            p = p.replace(&format!("{{{name}}}"), &path_value(name));
        }
        p
    };
    let plain = fill(&|_| "1".to_owned());
    let mut out = Vec::new();
    for v in VARIANTS {
        // Path parameters, one at a time (a URL holds one 60,000-character value).
        for name in &op.path_params {
            let t = encode(&text(v));
            let path = fill(&|n| if n == name { t.clone() } else { "1".to_owned() });
            out.push((
                path,
                op.body.as_ref().map(|b| value(doc, b, Variant::Empty, 0)),
            ));
        }
        // Query parameters, one at a time, the others plausible.
        for name in &op.query_params {
            let query: Vec<String> = op
                .query_params
                .iter()
                .map(|q| {
                    let t = if q == name { text(v) } else { "1".to_owned() };
                    format!("{q}={}", encode(&t))
                })
                .collect();
            out.push((format!("{plain}?{}", query.join("&")), None));
        }
        if let Some(schema) = &op.body {
            let mut body = value(doc, schema, v, 0);
            within_limit(&mut body, &mut 15);
            out.push((plain.clone(), Some(body)));
        }
    }
    if op.body.is_some() {
        for body in [json!(null), json!("x".repeat(LONG)), json!([]), json!({})] {
            out.push((plain.clone(), Some(body)));
        }
    }
    if out.is_empty() {
        out.push((plain, None));
    }
    out
}

/// Operations whose success would end the caller's session or stop the test's server's work:
/// still sent, but the caller signs in again after them.
fn ends_session(path: &str) -> bool {
    path.contains("logout")
        || path.contains("impersonat")
        || path.contains("changemypassword")
        || path.contains("/mfa")
}

async fn run(server: &TestServer, account: Option<Account>) -> usize {
    let mut client = match account {
        Some(a) => server.signed_in(a).await,
        None => server.client(),
    };
    let doc = client.get_json("/api/openapi.json").await;
    let ops = operations(&doc);
    assert!(ops.len() > 100, "only {} operations", ops.len());
    let mut sent = 0;
    let mut failures = Vec::new();
    for op in &ops {
        for (path, body) in requests(&doc, op) {
            let body = body.map(|b| (serde_json::to_vec(&b).unwrap(), "application/json"));
            if std::env::var("FUZZ_TRACE").is_ok() {
                eprintln!(
                    "{} {} {}",
                    op.method,
                    path.chars().take(100).collect::<String>(),
                    body.as_ref().map_or(0, |b| b.0.len())
                );
            }
            let res = client
                // A refused large body is answered before it is read and the connection closed:
                // one connection per request, so the next request never lands on a closed one.
                .send(
                    op.method.clone(),
                    &path,
                    body,
                    Csrf::Auto,
                    &[("connection", "close")],
                )
                .await;
            sent += 1;
            if res.status.is_server_error() {
                let shown: String = path.chars().take(120).collect();
                failures.push(format!(
                    "{} {shown}: {} {}",
                    op.method,
                    res.status,
                    res.text().chars().take(300).collect::<String>()
                ));
            }
        }
        if let Some(a) = account {
            if ends_session(&op.path)
                || client.get_json("/api/accountApi/permissionsJson").await["IsUserLoggedIn"]
                    != json!(true)
            {
                client = server.signed_in(a).await;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {sent} requests answered 5xx as {account:?}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    sent
}

#[tokio::test]
async fn no_operation_answers_5xx_to_hostile_values_as_program_manager() {
    let server = TestServer::demo().await;
    let sent = run(&server, Some(MANAGER)).await;
    assert!(sent > 1000, "only {sent} requests");
    server.assert_alive().await;
}

#[tokio::test]
async fn no_operation_answers_5xx_to_hostile_values_anonymously() {
    let server = TestServer::demo().await;
    let sent = run(&server, None).await;
    assert!(sent > 1000, "only {sent} requests");
    server.assert_alive().await;
}
