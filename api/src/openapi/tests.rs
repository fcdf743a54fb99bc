//! The document and the router are one list: checked here in process, and against a running
//! server by tests/api/tests/openapi_contract.rs.

use std::collections::BTreeSet;
use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

use super::*;

#[test]
fn every_operation_is_documented_once_with_its_schemas() {
    let router = crate::routes::router();
    let doc = document();
    let mut seen = BTreeSet::new();
    for op in router.operations() {
        assert!(
            seen.insert((op.method, op.path)),
            "{} {} registered twice",
            op.method,
            op.path
        );
        let entry = &doc["paths"][op.path][op.method.to_lowercase()];
        assert!(entry.is_object(), "{} {} missing", op.method, op.path);
        assert!(
            !op.summary.is_empty(),
            "{} {} has no summary",
            op.method,
            op.path
        );
        assert!(entry["responses"]
            .as_object()
            .is_some_and(|r| !r.is_empty()));
    }
    let documented: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum();
    assert_eq!(documented, router.operations().len());
    // Every reference resolves, and every component name is a valid OpenAPI name.
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in schemas.keys() {
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)),
            "invalid component name {name}"
        );
    }
    let text = doc.to_string();
    for r in text.split("\"$ref\":\"").skip(1) {
        let target = &r[..r.find('"').unwrap()];
        let name = target.strip_prefix(schemas::PREFIX).expect(target);
        assert!(schemas.contains_key(name), "dangling $ref {target}");
    }
}

#[test]
fn roles_templated_paths_and_files_are_read_from_the_handlers() {
    let doc = document();
    let op = |m: &str, p: &str| doc["paths"][p][m].clone();
    // The handler takes RequireRole<UserAdmins>: ClientAdmin and ProgramManager, never FrontDesk.
    let users = op("post", "/api/user/datatable");
    assert_eq!(
        users["x-roles"],
        serde_json::json!(["ClientAdmin", "ProgramManager"])
    );
    assert!(users["requestBody"]["content"]["application/json"]["schema"]["$ref"].is_string());
    let pdf = op("get", "/api/surveyRun/log/{surveyLogId}/summaryPdf");
    assert_eq!(pdf["parameters"][0]["name"], "surveyLogId");
    assert_eq!(pdf["parameters"][0]["in"], "path");
    assert_eq!(pdf["parameters"][0]["schema"]["type"], "integer");
    assert!(pdf["responses"]["200"]["content"]["application/pdf"].is_object());
    let setup = op("get", "/api/configuration/loadConfiguration");
    assert_eq!(setup["x-open-until-configured"], true);
    assert_eq!(setup["x-roles"], serde_json::json!(["ProgramManager"]));
    let anyone = op("get", "/api/health");
    assert_eq!(anyone["x-roles"], serde_json::json!([]));
    assert!(anyone.get("security").is_none());
}

/// Every JSON body a client sends or receives is a wasm-core wire type (or a list or map of
/// them): none is an untyped `serde_json::Value`, which the document could only call "anything".
/// The one exception is this document itself.
#[test]
fn every_json_body_has_a_declared_shape() {
    let doc = document();
    let untyped = |schema: &serde_json::Value| {
        schema.as_bool() == Some(true)
            || schema.as_object().is_some_and(|o| {
                !o.contains_key("$ref")
                    && !o.contains_key("type")
                    && !o.contains_key("anyOf")
                    && !o.contains_key("oneOf")
                    && !o.contains_key("allOf")
            })
    };
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if path == "/api/openapi.json" {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            let request = &op["requestBody"]["content"]["application/json"]["schema"];
            if !request.is_null() && untyped(request) {
                found.push(format!("{method} {path} request"));
            }
            for (status, response) in op["responses"].as_object().unwrap() {
                let schema = &response["content"]["application/json"]["schema"];
                if !schema.is_null() && untyped(schema) {
                    found.push(format!("{method} {path} {status}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "untyped JSON bodies:\n{}",
        found.join("\n")
    );
}

/// Routes enter the API only through `ApiRouter`, which documents them: no module builds an
/// axum route of its own.
#[test]
fn no_route_is_added_outside_the_documenting_router() {
    fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.parent().is_some_and(|p| p.ends_with("openapi"))
            {
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, line) in text.lines().enumerate() {
                    let plain_router = line.replace("ApiRouter::new()", "");
                    if line.contains(".route(")
                        || line.contains(".nest(")
                        || plain_router.contains("Router::new()")
                    {
                        found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    assert!(
        found.is_empty(),
        "routes outside ApiRouter:\n{}",
        found.join("\n")
    );
}

/// Every documented operation answers with something other than the router's 404/405.
#[tokio::test]
async fn every_documented_operation_is_routed() {
    let dir = std::env::temp_dir().join(format!(
        "portal-api-openapi-{}-{}",
        std::process::id(),
        crate::auth::random_token()
    ));
    let config = crate::Config::new(
        "127.0.0.1:0",
        &format!("sqlite://{}/t.db", dir.display()),
        dir.join("web"),
    );
    let app = crate::app(crate::build(&config).await.unwrap());
    for op in crate::routes::router().operations() {
        let path = op
            .path
            .split('/')
            .map(|s| if s.starts_with('{') { "1" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        let mut req = Request::builder()
            .method(op.method)
            .uri(&path)
            .header("cookie", "portal_csrf=t")
            .header("x-csrf-token", "t")
            .header("content-type", "application/json")
            .body(Body::from("{}"))
            .unwrap();
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 9))));
        let res = app.clone().oneshot(req).await.unwrap();
        assert!(
            !res.headers().contains_key(crate::web::UNROUTED)
                && res.status() != StatusCode::METHOD_NOT_ALLOWED,
            "{} {} -> {}",
            op.method,
            op.path,
            res.status()
        );
    }
    // The check above can fail: a path no route matches carries the marker.
    let res = app
        .oneshot(
            Request::builder()
                .uri("/api/no/such/route")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert!(res.headers().contains_key(crate::web::UNROUTED));
    std::fs::remove_dir_all(&dir).ok();
}
