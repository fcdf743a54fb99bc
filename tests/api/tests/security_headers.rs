//! Issue 22: security headers on every answer (ASVS V14.4), no caching of API answers (V8.1.1),
//! precompressed assets and compressed JSON by content negotiation.

use std::io::Read;

use api_tests::*;

fn header(response: &Response, name: &str) -> String {
    response
        .header(name)
        .unwrap_or_else(|| panic!("no {name} header (status {})", response.status))
}

#[tokio::test]
async fn pages_carry_the_content_security_policy_and_the_other_headers() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    for path in ["/", "/patient/login", "/assets/app.js"] {
        let response = client.get(path).await;
        assert_eq!(response.status, StatusCode::OK, "GET {path}");
        let csp = header(&response, "content-security-policy");
        assert!(
            csp.contains("script-src 'self' 'wasm-unsafe-eval'"),
            "{path}: {csp}"
        );
        assert!(!csp.contains("'unsafe-eval'"), "{path}: {csp}");
        assert!(csp.contains("object-src 'none'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'self'"), "{path}: {csp}");
        assert_eq!(header(&response, "x-content-type-options"), "nosniff");
        assert_eq!(header(&response, "referrer-policy"), "same-origin");
        assert!(header(&response, "permissions-policy").contains("camera=()"));
        assert_eq!(header(&response, "x-frame-options"), "SAMEORIGIN");
        // Plain HTTP (no --public-https): no HSTS, which a browser would ignore anyway.
        assert!(response.header("strict-transport-security").is_none());
    }
    // Pages are revalidated, hashed assets kept: unchanged by the security layer.
    assert_eq!(header(&client.get("/").await, "cache-control"), "no-cache");
    assert!(header(&client.get("/assets/app.js").await, "cache-control").contains("immutable"));
}

#[tokio::test]
async fn api_answers_with_personal_or_session_data_are_never_stored() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    client.sign_in(JANE).await;
    for path in [
        "/api/health",
        "/api/accountApi/permissionsJson",
        "/api/documents/nope",
        "/magview.api/nope",
    ] {
        let response = client.get(path).await;
        assert_eq!(header(&response, "cache-control"), "no-store", "GET {path}");
        let csp = header(&response, "content-security-policy");
        assert!(csp.starts_with("default-src 'none'"), "GET {path}: {csp}");
    }
    // A refused write and an error carry them too.
    let response = client
        .post_json("/api/documents/loadDocuments", &json!("not an object"))
        .await;
    assert!(response.status.is_client_error(), "{}", response.status);
    assert_eq!(header(&response, "cache-control"), "no-store");
    assert_eq!(header(&response, "x-content-type-options"), "nosniff");
}

#[tokio::test]
async fn behind_https_every_answer_carries_hsts() {
    let server = TestServer::start(ServerOptions::demo().public_https()).await;
    let mut client = server.client();
    for path in ["/", "/api/health"] {
        let response = client.get(path).await;
        let hsts = header(&response, "strict-transport-security");
        assert!(hsts.starts_with("max-age=63072000"), "GET {path}: {hsts}");
    }
}

#[tokio::test]
async fn precompressed_assets_are_picked_by_accept_encoding() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let br = client
        .send(
            Method::GET,
            "/assets/app.js",
            None,
            Csrf::Omit,
            &[("accept-encoding", "br, gzip")],
        )
        .await;
    assert_eq!(br.status, StatusCode::OK);
    assert_eq!(header(&br, "content-encoding"), "br");
    assert!(br.text().contains(APP_JS_BROTLI_MARKER), "{:?}", br.text());
    assert!(header(&br, "vary")
        .to_ascii_lowercase()
        .contains("accept-encoding"));
    // No gzip file was built and gzip is all the client takes: the plain file, as it is.
    let plain = client
        .send(
            Method::GET,
            "/assets/app.js",
            None,
            Csrf::Omit,
            &[("accept-encoding", "gzip")],
        )
        .await;
    assert!(plain.text().contains(APP_JS_MARKER), "{:?}", plain.text());
}

#[tokio::test]
async fn large_json_answers_are_compressed_small_ones_are_not() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let gzip = [("accept-encoding", "gzip")];
    let big = client
        .send(Method::GET, "/api/openapi.json", None, Csrf::Omit, &gzip)
        .await;
    assert_eq!(big.status, StatusCode::OK);
    assert_eq!(header(&big, "content-encoding"), "gzip");
    assert_eq!(&big.body[..2], &[0x1f, 0x8b], "a gzip stream");
    let small = client
        .send(Method::GET, "/api/health", None, Csrf::Omit, &gzip)
        .await;
    assert!(small.header("content-encoding").is_none());
    // A client that takes no encoding gets plain JSON.
    let plain = client.get("/api/openapi.json").await;
    assert!(plain.header("content-encoding").is_none());
    assert!(plain.json().get("openapi").is_some());
}

/// What each codec's answer decodes to.
fn decoded(response: &Response) -> Vec<u8> {
    let mut out = Vec::new();
    let body = &response.body[..];
    match header(response, "content-encoding").as_str() {
        "zstd" => out = zstd::decode_all(body).expect("a zstd stream"),
        "br" => {
            brotli_decompressor::Decompressor::new(body, 4096)
                .read_to_end(&mut out)
                .expect("a brotli stream");
        }
        "gzip" => {
            flate2::read::GzDecoder::new(body)
                .read_to_end(&mut out)
                .expect("a gzip stream");
        }
        other => panic!("unexpected content-encoding {other}"),
    }
    out
}

#[tokio::test]
async fn each_codec_a_browser_offers_decodes_to_the_plain_answer() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let plain = client.get("/api/openapi.json").await.body;
    for (offered, picked) in [
        // Chromium and Firefox: zstd, the cheapest to make.
        ("gzip, deflate, br, zstd", "zstd"),
        // Safari takes no zstd.
        ("gzip, deflate, br", "br"),
        ("gzip", "gzip"),
        // A codec refused with q=0 is never used; a higher q-value wins.
        ("zstd;q=0, br;q=0.5, gzip", "gzip"),
    ] {
        let response = client
            .send(
                Method::GET,
                "/api/openapi.json",
                None,
                Csrf::Omit,
                &[("accept-encoding", offered)],
            )
            .await;
        assert_eq!(response.status, StatusCode::OK, "{offered}");
        assert_eq!(header(&response, "content-encoding"), picked, "{offered}");
        assert!(
            response.body.len() * 4 < plain.len(),
            "{offered}: {} of {} bytes",
            response.body.len(),
            plain.len()
        );
        assert!(
            decoded(&response) == plain,
            "{offered}: decodes to another answer"
        );
    }
}
