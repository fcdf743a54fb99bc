//! Every search is bounded (issue 13 §3): a search text longer than wasm-core's
//! `table::MAX_SEARCH_CHARS` (200) answers 400 "Search text can be at most 200 characters" on
//! every table and on the patient search, whatever its size, and hostile characters are searched
//! literally (LIKE wildcards escaped), never a 5xx.

use api_tests::*;

const TOO_LONG: &str = "Search text can be at most 200 characters";
const ADMIN_PIN: &str = "2468";

/// The datatable endpoints, each with an account that may call it.
const TABLES: [(&str, Account); 3] = [
    ("/api/user/datatable", CLIENT_ADMIN),
    ("/api/surveyQueue/datatable", FRONT_DESK),
    ("/api/NotificationHistory/datatables", FRONT_DESK),
];

/// Texts the database must treat as plain characters.
const HOSTILE: [&str; 9] = [
    "%",
    "_",
    "%%%_%",
    "[a-z]",
    "\\",
    "\\%\\_",
    "a\\",
    "😀 Doe",
    "' OR 1=1 --",
];

fn table(search: &str) -> Value {
    json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "asc", "Search": search})
}

fn expect_too_long(response: &Response, what: &str) {
    assert_eq!(
        response.status,
        StatusCode::BAD_REQUEST,
        "{what}: {}",
        response.text()
    );
    let body = response.expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Message"], TOO_LONG, "{what}: {body}");
}

#[tokio::test]
async fn table_searches_are_bounded() {
    let server = TestServer::demo().await;
    for (path, account) in TABLES {
        let mut c = server.signed_in(account).await;
        let at_bound = c.post_json(path, &table(&"é".repeat(200))).await;
        assert_eq!(at_bound.status, StatusCode::OK, "{path} 200 characters");
        for size in [201, 60_000] {
            let r = c.post_json(path, &table(&"a".repeat(size))).await;
            expect_too_long(&r, &format!("{path} {size} characters"));
            let r = c.post_json(path, &table(&"%".repeat(size))).await;
            expect_too_long(&r, &format!("{path} {size} '%'"));
        }
        // Characters count, not bytes: 201 emoji are too many.
        let r = c.post_json(path, &table(&"😀".repeat(201))).await;
        expect_too_long(&r, &format!("{path} 201 emoji"));
    }
    server.assert_alive().await;
}

#[tokio::test]
async fn hostile_table_searches_are_literal() {
    let server = TestServer::demo().await;
    for (path, account) in TABLES {
        let mut c = server.signed_in(account).await;
        for text in HOSTILE {
            let r = c.post_json(path, &table(text)).await;
            assert_eq!(r.status, StatusCode::OK, "{path} {text:?}: {}", r.text());
        }
        // Wildcards match only themselves: no demo row holds these characters.
        for text in ["%", "_", "\\"] {
            let page = c.post_json(path, &table(text)).await.expect(StatusCode::OK);
            assert_eq!(page["FilteredCount"], 0, "{path} {text:?}: {page}");
        }
        let r = c.post_json(path, &table("Doe\0")).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path} NUL");
    }
    server.assert_alive().await;
}

async fn search(c: &mut Client, grant: &str, body: &Value) -> Response {
    let headers = [("x-survey-admin", grant)];
    let body = Some((body.to_string().into_bytes(), "application/json"));
    c.send(
        Method::POST,
        "/api/v2/survey/searchRespondents",
        body,
        Csrf::Auto,
        &headers,
    )
    .await
}

#[tokio::test]
async fn patient_search_is_bounded() {
    let server = TestServer::demo().await;
    let mut c = server.signed_in(FRONT_DESK).await;
    let r = c
        .get(&format!(
            "/api/surveyIdentity/CheckAdminPin?adminPin={ADMIN_PIN}"
        ))
        .await
        .expect(StatusCode::OK);
    let grant = r["Token"].as_str().expect("a grant token").to_owned();

    let ok = search(&mut c, &grant, &json!({"SimpleSearch": "jane do"})).await;
    let ok = ok.expect(StatusCode::OK);
    assert!(!ok["Data"].as_array().unwrap().is_empty(), "{ok}");
    let at_bound = search(&mut c, &grant, &json!({"SimpleSearch": "é".repeat(200)})).await;
    assert_eq!(at_bound.status, StatusCode::OK, "{}", at_bound.text());

    for field in [
        "SimpleSearch",
        "RespondentId",
        "FirstName",
        "LastName",
        "Location",
    ] {
        for size in [201, 60_000] {
            for fill in ["a", "%"] {
                let mut body = json!({"SimpleSearch": "jane"});
                body[field] = json!(fill.repeat(size));
                let r = search(&mut c, &grant, &body).await;
                expect_too_long(&r, &format!("{field} {size} {fill:?}"));
            }
        }
    }

    for text in HOSTILE {
        for field in ["SimpleSearch", "RespondentId", "FirstName", "LastName"] {
            let body = json!({ field: format!("{text}{text}{text}") });
            let r = search(&mut c, &grant, &body).await;
            assert!(
                r.status == StatusCode::OK || r.status == StatusCode::BAD_REQUEST,
                "{field} {text:?}: {} {}",
                r.status,
                r.text()
            );
        }
    }
    for text in ["%%%", "___", "\\\\\\"] {
        let r = search(&mut c, &grant, &json!({"SimpleSearch": text})).await;
        let hits = r.expect(StatusCode::OK);
        assert_eq!(hits["Data"], json!([]), "{text:?} matched: {hits}");
    }
    let r = search(&mut c, &grant, &json!({"SimpleSearch": "jane\0"})).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    server.assert_alive().await;
}

#[tokio::test]
async fn the_managers_letter_search_is_bounded() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    const LOAD: &str = "/api/documents/loadDocuments";
    let found = manager.post_json(LOAD, &json!({"ssn": "100001"})).await;
    assert_eq!(found.status, StatusCode::OK, "{}", found.text());
    for size in [201, 60_000] {
        let r = manager
            .post_json(LOAD, &json!({"ssn": "1".repeat(size)}))
            .await;
        expect_too_long(&r, &format!("loadDocuments {size} characters"));
    }
    for text in HOSTILE {
        let r = manager.post_json(LOAD, &json!({ "ssn": text })).await;
        assert!(
            r.status.as_u16() < 500,
            "{text:?}: {} {}",
            r.status,
            r.text()
        );
    }
    server.assert_alive().await;
}
