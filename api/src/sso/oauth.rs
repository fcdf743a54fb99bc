//! SMART on FHIR sign-in (issue 19): what the Epic EHR launch and Cerner's health-record sign-in
//! share. Both are the OAuth 2 authorization code flow with PKCE S256 (oauth2) against the
//! authorization server the FHIR base's `.well-known/smart-configuration` names; the scopes ask
//! for `openid`, so the token response carries an id_token, checked with openidconnect
//! (signature against the server's JWKS, issuer, audience = our client id, expiry, our nonce);
//! the patient is the token response's `patient` (SMART's patient context, a FHIR Patient id).
//!
//! The request is kept server side under the hash of its `state` for [`PENDING_TTL_MS`], and
//! taken when the callback comes: a state is answered once, and a code only with the PKCE
//! verifier of the request it was issued to (the server refuses the exchange otherwise).
//!
//! Epic authenticates the client with a JWT assertion signed RS384 by EpicJwtPrivateKey
//! ([`client_assertion`]: a fresh jti each time, exp within 5 minutes; Epic, like
//! oidc-provider, refuses an assertion seen before); without a key, EpicClientSecret is sent
//! with HTTP Basic. Cerner sends CernerOAuthKey / CernerOAuthSecret with HTTP Basic.

use std::sync::OnceLock;
use std::time::Duration;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use oauth2::basic::{
    BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
    BasicTokenType,
};
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet,
    EndpointSet, ExtraTokenFields, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl,
    RequestTokenError, Scope, StandardRevocableToken, StandardTokenResponse, TokenUrl,
};
use openidconnect::core::{
    CoreIdToken, CoreIdTokenVerifier, CoreJsonWebKeySet, CoreJwsSigningAlgorithm,
};
use openidconnect::{ClaimsVerificationError, IssuerUrl, JsonWebKeySetUrl, Nonce};
use serde::{Deserialize, Serialize};

/// How long an authorization request may wait for its callback.
pub const PENDING_TTL_MS: i64 = 10 * 60_000;
/// The client assertion's lifetime (Epic accepts at most 5 minutes).
pub const ASSERTION_LIFETIME_SECS: u64 = 240;
/// Longest `smart-configuration` or JWKS document read.
const MAX_DOCUMENT: usize = 256 * 1024;

/// The HTTP client of every exchange: no redirects followed (oauth2's advice: a redirect could
/// carry the code or the secret elsewhere), bounded in time.
pub fn http() -> &'static reqwest::Client {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(|| {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(15))
            .build()
            .unwrap_or_default()
    })
}

/// The endpoints a FHIR base's `.well-known/smart-configuration` names.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Endpoints {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
}

fn web_url(u: &str) -> bool {
    (u.starts_with("https://") || u.starts_with("http://")) && u.len() <= 2000
}

/// The FHIR base as configured and as the EHR sends it (`iss`): no trailing slash.
pub fn fhir_base(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
}

/// SMART discovery: the endpoints of `base`, or a reason to refuse.
pub async fn discover(base: &str) -> Result<Endpoints, &'static str> {
    let url = format!("{}/.well-known/smart-configuration", fhir_base(base));
    let answer = http()
        .get(&url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|_| "smart-configuration not reachable")?;
    if !answer.status().is_success() {
        return Err("smart-configuration not found");
    }
    let body = answer
        .bytes()
        .await
        .map_err(|_| "smart-configuration not reachable")?;
    if body.len() > MAX_DOCUMENT {
        return Err("smart-configuration too large");
    }
    #[derive(Deserialize)]
    struct Doc {
        #[serde(default)]
        issuer: String,
        #[serde(default)]
        authorization_endpoint: String,
        #[serde(default)]
        token_endpoint: String,
        #[serde(default)]
        jwks_uri: String,
    }
    let doc: Doc =
        serde_json::from_slice(&body).map_err(|_| "smart-configuration not valid JSON")?;
    let all = [
        &doc.issuer,
        &doc.authorization_endpoint,
        &doc.token_endpoint,
        &doc.jwks_uri,
    ];
    if !all.iter().all(|u| web_url(u)) {
        // An id_token is checked against `issuer` and `jwks_uri`: both are required here.
        return Err("smart-configuration lacks an endpoint, issuer or jwks_uri");
    }
    Ok(Endpoints {
        issuer: doc.issuer,
        authorization_endpoint: doc.authorization_endpoint,
        token_endpoint: doc.token_endpoint,
        jwks_uri: doc.jwks_uri,
    })
}

/// An authorization request waiting for its callback (kept server side, see the module doc).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    pub flow: String,
    pub endpoints: Endpoints,
    pub redirect_uri: String,
    pub pkce_verifier: String,
    pub nonce: String,
}

/// What [`authorize`] needs.
pub struct Request<'a> {
    pub flow: &'a str,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub endpoints: Endpoints,
    pub scopes: &'a [&'a str],
    /// SMART's `aud`: the FHIR base the token is for.
    pub aud: &'a str,
    /// The EHR launch's context handle (Epic), none for a standalone sign-in (Cerner).
    pub launch: Option<&'a str>,
}

/// The authorization address to send the browser to, the state, and what to keep under it.
pub fn authorize(r: Request<'_>) -> Result<(String, String, Pending), &'static str> {
    let client = oauth2::basic::BasicClient::new(ClientId::new(r.client_id.to_owned()))
        .set_auth_uri(
            AuthUrl::new(r.endpoints.authorization_endpoint.clone())
                .map_err(|_| "authorization endpoint not a URL")?,
        )
        .set_redirect_uri(
            RedirectUrl::new(r.redirect_uri.to_owned()).map_err(|_| "redirect URI not a URL")?,
        );
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let nonce = CsrfToken::new_random();
    let mut request = client
        .authorize_url(CsrfToken::new_random)
        .set_pkce_challenge(challenge)
        .add_extra_param("aud", r.aud)
        .add_extra_param("nonce", nonce.secret());
    for scope in r.scopes {
        request = request.add_scope(Scope::new((*scope).to_owned()));
    }
    if let Some(launch) = r.launch {
        request = request.add_extra_param("launch", launch);
    }
    let (url, state) = request.url();
    Ok((
        url.to_string(),
        state.secret().clone(),
        Pending {
            flow: r.flow.to_owned(),
            endpoints: r.endpoints,
            redirect_uri: r.redirect_uri.to_owned(),
            pkce_verifier: verifier.secret().clone(),
            nonce: nonce.secret().clone(),
        },
    ))
}

/// SMART's additions to the token response.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SmartFields {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patient: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
}

impl ExtraTokenFields for SmartFields {}

type SmartTokenResponse = StandardTokenResponse<SmartFields, BasicTokenType>;
type TokenClient = oauth2::Client<
    BasicErrorResponse,
    SmartTokenResponse,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

/// How the client proves itself at the token endpoint.
pub enum ClientAuth {
    /// Epic's backend client assertion (RS384 JWT from EpicJwtPrivateKey, PEM).
    PrivateKeyJwt { pem: String },
    /// HTTP Basic with the client secret.
    Secret(String),
}

#[derive(Serialize)]
struct AssertionClaims<'a> {
    iss: &'a str,
    sub: &'a str,
    aud: &'a str,
    jti: String,
    iat: u64,
    nbf: u64,
    exp: u64,
}

/// A client assertion for `token_endpoint` (RFC 7523): RS384, iss = sub = the client id, a
/// random jti, exp [`ASSERTION_LIFETIME_SECS`] from now.
pub fn client_assertion(
    client_id: &str,
    token_endpoint: &str,
    pem: &str,
    now_secs: u64,
) -> Result<String, &'static str> {
    let key = EncodingKey::from_rsa_pem(normalized_pem(pem).as_bytes())
        .map_err(|_| "EpicJwtPrivateKey is not an RSA private key (PEM)")?;
    let claims = AssertionClaims {
        iss: client_id,
        sub: client_id,
        aud: token_endpoint,
        jti: uuid::Uuid::new_v4().to_string(),
        iat: now_secs,
        nbf: now_secs,
        exp: now_secs + ASSERTION_LIFETIME_SECS,
    };
    jsonwebtoken::encode(&Header::new(Algorithm::RS384), &claims, &key)
        .map_err(|_| "client assertion not signed")
}

/// A PEM as pasted into a one-line field (SSO Management's password input drops the line
/// breaks): the base64 body wrapped again at 64 characters between its BEGIN and END lines.
pub fn normalized_pem(pem: &str) -> String {
    let pem = pem.trim();
    let Some(begin_end) = pem.find("-----BEGIN ").and_then(|b| {
        let after = pem[b + 11..].find("-----")? + b + 11 + 5;
        Some((b, after))
    }) else {
        return pem.to_owned();
    };
    let Some(footer) = pem.rfind("-----END ") else {
        return pem.to_owned();
    };
    if footer < begin_end.1 {
        return pem.to_owned();
    }
    let header = &pem[begin_end.0..begin_end.1];
    let body: String = pem[begin_end.1..footer]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = format!("{header}\n");
    for line in body.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(pem[footer..].trim());
    out.push('\n');
    out
}

/// The patient a completed flow names: the code exchanged (with the request's PKCE verifier),
/// the id_token checked, the `patient` read. Err is the audited reason.
pub async fn finish(
    pending: &Pending,
    client_id: &str,
    auth: ClientAuth,
    code: &str,
    now_secs: u64,
) -> Result<String, String> {
    let token_url = TokenUrl::new(pending.endpoints.token_endpoint.clone())
        .map_err(|_| "token endpoint not a URL".to_owned())?;
    let redirect = RedirectUrl::new(pending.redirect_uri.clone())
        .map_err(|_| "redirect URI not a URL".to_owned())?;
    let mut client: TokenClient = oauth2::Client::new(ClientId::new(client_id.to_owned()))
        .set_token_uri(token_url)
        .set_redirect_uri(redirect);
    let mut assertion = None;
    match auth {
        ClientAuth::PrivateKeyJwt { pem } => {
            // client_id goes in the body next to the assertion, no Basic header.
            client = client.set_auth_type(AuthType::RequestBody);
            assertion = Some(
                client_assertion(client_id, &pending.endpoints.token_endpoint, &pem, now_secs)
                    .map_err(str::to_owned)?,
            );
        }
        ClientAuth::Secret(secret) => {
            client = client.set_client_secret(ClientSecret::new(secret));
        }
    }
    let mut request = client
        .exchange_code(AuthorizationCode::new(code.to_owned()))
        .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier.clone()));
    if let Some(jwt) = &assertion {
        request = request
            .add_extra_param(
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            )
            .add_extra_param("client_assertion", jwt.clone());
    }
    let token = request.request_async(http()).await.map_err(|e| match e {
        RequestTokenError::ServerResponse(r) => {
            format!("token request refused: {}", r.error().as_ref())
        }
        RequestTokenError::Parse(..) => "token response not valid".to_owned(),
        _ => "token endpoint not reachable".to_owned(),
    })?;
    let extra = token.extra_fields();
    let id_token = extra
        .id_token
        .as_deref()
        .ok_or_else(|| "no id_token in the token response".to_owned())?;
    verify_id_token(pending, client_id, id_token).await?;
    let patient = extra.patient.as_deref().map(str::trim).unwrap_or_default();
    if patient.is_empty() || patient.len() > 200 {
        return Err("no patient context in the token response".to_owned());
    }
    Ok(patient.to_owned())
}

/// The id_token's signature (the server's JWKS), issuer, audience, expiry and nonce.
async fn verify_id_token(pending: &Pending, client_id: &str, jwt: &str) -> Result<(), String> {
    let id_token: CoreIdToken = jwt.parse().map_err(|_| "id_token not a JWT".to_owned())?;
    let jwks_url = JsonWebKeySetUrl::new(pending.endpoints.jwks_uri.clone())
        .map_err(|_| "jwks_uri not a URL".to_owned())?;
    let keys = CoreJsonWebKeySet::fetch_async(&jwks_url, http())
        .await
        .map_err(|_| "JWKS not reachable".to_owned())?;
    let issuer = IssuerUrl::new(pending.endpoints.issuer.clone())
        .map_err(|_| "issuer not a URL".to_owned())?;
    let verifier =
        CoreIdTokenVerifier::new_public_client(ClientId::new(client_id.to_owned()), issuer, keys)
            .set_allowed_algs([
                CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
                CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha384,
                CoreJwsSigningAlgorithm::RsaSsaPssSha256,
                CoreJwsSigningAlgorithm::EcdsaP256Sha256,
                CoreJwsSigningAlgorithm::EcdsaP384Sha384,
            ]);
    let nonce = Nonce::new(pending.nonce.clone());
    id_token.claims(&verifier, &nonce).map(|_| ()).map_err(|e| {
        match e {
            ClaimsVerificationError::Expired(_) => "expired id_token",
            ClaimsVerificationError::InvalidAudience(_) => "id_token for another audience",
            ClaimsVerificationError::InvalidIssuer(_) => "id_token from another issuer",
            ClaimsVerificationError::InvalidNonce(_) => "id_token nonce mismatch",
            ClaimsVerificationError::SignatureVerification(_) => "id_token signature not valid",
            _ => "id_token not valid",
        }
        .to_owned()
    })
}

/// An OAuth error code from the callback, for the audit row (letters and `_` only, bounded).
pub fn error_code(error: &str) -> String {
    let code: String = error
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(40)
        .collect();
    if code.is_empty() {
        "unknown".to_owned()
    } else {
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pem_without_line_breaks_is_wrapped_again() {
        let one_line = "-----BEGIN PRIVATE KEY----- QUJD REVG -----END PRIVATE KEY-----";
        assert_eq!(
            normalized_pem(one_line),
            "-----BEGIN PRIVATE KEY-----\nQUJDREVG\n-----END PRIVATE KEY-----\n"
        );
        assert_eq!(normalized_pem("not a pem"), "not a pem");
    }

    #[test]
    fn error_codes_are_bounded_and_plain() {
        assert_eq!(error_code("access_denied"), "access_denied");
        assert_eq!(error_code("<script>"), "script");
        assert_eq!(error_code(""), "unknown");
        assert_eq!(error_code(&"x".repeat(100)).len(), 40);
    }

    #[test]
    fn the_authorization_address_carries_pkce_aud_and_launch() {
        let (url, state, pending) = authorize(Request {
            flow: "Epic",
            client_id: "c1",
            redirect_uri: "https://portal.example/cb",
            endpoints: Endpoints {
                issuer: "https://as.example".into(),
                authorization_endpoint: "https://as.example/auth".into(),
                token_endpoint: "https://as.example/token".into(),
                jwks_uri: "https://as.example/jwks".into(),
            },
            scopes: &["openid", "launch"],
            aud: "https://ehr.example/fhir",
            launch: Some("L1"),
        })
        .unwrap();
        assert!(url.contains("code_challenge_method=S256"), "{url}");
        assert!(
            url.contains("aud=https%3A%2F%2Fehr.example%2Ffhir"),
            "{url}"
        );
        assert!(url.contains("launch=L1"), "{url}");
        assert!(url.contains(&format!("state={state}")), "{url}");
        assert!(url.contains(&format!("nonce={}", pending.nonce)), "{url}");
        assert!(pending.pkce_verifier.len() >= 43);
    }
}
