//! The generated OpenAPI document against the running server: every documented operation is
//! routed, no undocumented method answers on a documented path, and each operation's documented
//! roles are exactly the roles its handler lets in (issue 13 §2).

use api_tests::*;

const FORBIDDEN: &str = "You do not have permission to do this.";
const METHODS: [&str; 4] = ["get", "post", "put", "delete"];

/// (method, path with each {param} filled, documented roles, has a request body)
fn operations(doc: &Value) -> Vec<(String, String, Vec<String>, bool)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let filled = path
            .split('/')
            .map(|s| if s.starts_with('{') { "1" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for (method, op) in item.as_object().unwrap() {
            let roles = op["x-roles"]
                .as_array()
                .unwrap_or_else(|| panic!("{method} {path} has no x-roles"))
                .iter()
                .map(|r| r.as_str().unwrap().to_owned())
                .collect();
            ops.push((
                method.clone(),
                filled.clone(),
                roles,
                op.get("requestBody").is_some(),
            ));
        }
    }
    ops
}

/// A body no handler accepts: the role check runs first, then the body is refused (400), so a
/// permitted caller changes nothing.
async fn call(client: &mut Client, method: &str, path: &str) -> Response {
    let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
    let body = (!matches!(method, Method::GET)).then(|| (b"not json".to_vec(), "application/json"));
    client.send(method, path, body, Csrf::Auto, &[]).await
}

#[tokio::test]
async fn document_and_router_list_the_same_operations() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let doc = client.get_json("/api/openapi.json").await;
    assert_eq!(doc["openapi"], json!("3.1.0"));
    let ops = operations(&doc);
    assert!(ops.len() > 100, "only {} operations", ops.len());
    for (method, path, _, _) in &ops {
        let res = call(&mut client, method, path).await;
        assert!(
            res.header("x-portal-unrouted").is_none()
                && res.status != StatusCode::METHOD_NOT_ALLOWED,
            "documented {method} {path} is not routed: {}",
            res.status
        );
    }
    // The other direction: on every documented path, a method the document does not list is
    // not served (405). Paths no operation documents are 404 by the router's fallback, and
    // routes can only be added through the documenting router (see the api crate's test).
    for (path, item) in doc["paths"].as_object().unwrap() {
        let filled = path
            .split('/')
            .map(|s| if s.starts_with('{') { "1" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for method in METHODS.iter().filter(|m| item.get(**m).is_none()) {
            let res = call(&mut client, method, &filled).await;
            assert_eq!(
                res.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "undocumented {method} {path} answered {}",
                res.status
            );
        }
    }
}

#[tokio::test]
async fn documented_roles_are_the_roles_let_in() {
    let server = TestServer::demo().await;
    let doc = server.client().get_json("/api/openapi.json").await;
    let ops = operations(&doc);
    let restricted: Vec<_> = ops
        .iter()
        .filter(|(_, _, roles, _)| !roles.is_empty())
        .collect();
    assert!(
        restricted.len() > 50,
        "only {} restricted operations",
        restricted.len()
    );

    let mut anonymous = server.client();
    for (method, path, _, _) in &restricted {
        let res = call(&mut anonymous, method, path).await;
        assert_eq!(
            res.status,
            StatusCode::UNAUTHORIZED,
            "anonymous {method} {path}"
        );
    }
    for account in [MANAGER, CLIENT_ADMIN, FRONT_DESK, JANE] {
        let mut client = server.signed_in(account).await;
        for (method, path, roles, has_body) in &restricted {
            let allowed = roles.iter().any(|r| r == account.role);
            // A permitted call without a body would run: only reads and bodies are tried.
            if allowed && method != "get" && !has_body {
                continue;
            }
            let res = call(&mut client, method, path).await;
            let refused_by_role =
                res.status == StatusCode::FORBIDDEN && res.json()["Message"] == json!(FORBIDDEN);
            if allowed {
                assert!(
                    res.status != StatusCode::UNAUTHORIZED && !refused_by_role,
                    "{} was refused {method} {path} (documented {roles:?}): {}",
                    account.role,
                    res.status
                );
            } else {
                assert!(
                    refused_by_role,
                    "{} was let in to {method} {path} (documented {roles:?}): {} {}",
                    account.role,
                    res.status,
                    res.text()
                );
            }
        }
    }
}
