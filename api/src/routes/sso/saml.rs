//! SAML 2.0 sign-in (issue 19; IntegrationType Saml / SamlCernerHealtheLifeWithServiceRequest):
//! - GET /sso/saml/{key}: SSO Management's 'Test Url', what the EHR opens: an AuthnRequest
//!   (HTTP-Redirect binding) to the IdP; its ID is kept for 10 minutes.
//! - POST /sso/saml/{key}/acs: the IdP's response (HTTP-POST binding), checked by
//!   `crate::sso::saml` on a blocking thread, then the SSO session as for every flow.
//! - GET /sso/saml/{key}/metadata: this portal's SP metadata for the IdP.
//!
//! The addresses are under CorePortal's PublicWebAddress (the IdP posts there and the
//! response's Destination must name it).

use axum::extract::rejection::FormRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Form;
use serde::Deserialize;
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::sso::{sso_type_of, Sso, SAML};

use crate::answers::{File, SamlMetadataFile};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiPath, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::sso::saml::{self, Refusal, SpAddresses};
use crate::sso::{client_id, once_key, Attempt, Once, SsoRedirect};
use crate::store;
use crate::AppState;

const REQUEST_KEY: &str = "saml-request";
const ASSERTION_KEY: &str = "saml-assertion";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/sso/saml/{key}",
            "SAML sign-in starts ('Test Url'): 303 to the IdP's sign-on address with an AuthnRequest (HTTP-Redirect binding; to SamlServiceRequestUrl for SamlCernerHealtheLifeWithServiceRequest), or to /embed/error/sso/{clientId}/SignInFailed when SAML is not configured",
            start,
        )
        .post(
            "/sso/saml/{key}/acs",
            "Assertion consumer service (HTTP-POST binding): SAMLResponse signed RSA/ECDSA SHA-256 or better by the IdP of SamlIdpMetadata, for this portal's audience and address, in its time window, answering an AuthnRequest of this portal once, its assertion ID used once; the MRN from NameID or SamlNameIdClaimName (SamlMrnAliasType); 303 to the SSO documents page with a session or to /embed/error/sso/{clientId}/SignInFailed (every refusal audited with its reason)",
            acs,
        )
        .get(
            "/sso/saml/{key}/metadata",
            "This portal's SAML SP metadata (entity ID, ACS address; assertions must be signed); 404 for another key or without a PublicWebAddress",
            metadata,
        )
}

/// The SP's addresses, or None without a usable PublicWebAddress.
async fn addresses(state: &AppState, sso: &Sso) -> AppResult<Option<SpAddresses>> {
    let core: CorePortal = settings::get(&state.db).await?;
    Ok(SpAddresses::new(
        &core.public_web_address,
        &client_id(sso),
        &sso.entity_id,
    ))
}

fn flow(sso: &Sso) -> &str {
    if sso_type_of(&sso.integration_type).sso_type == SAML {
        &sso.integration_type
    } else {
        SAML
    }
}

/// The checks every SAML route makes first: a reason to refuse, or the SP's addresses.
async fn configured(
    attempt: &Attempt<'_>,
    key: &str,
) -> AppResult<Result<SpAddresses, &'static str>> {
    let sso = attempt.sso;
    if !attempt.throttle().await? {
        return Ok(Err("too many attempts from this address"));
    }
    if sso.portal_mode != "SSO" || sso_type_of(&sso.integration_type).sso_type != SAML {
        return Ok(Err("SAML sign-in is not configured"));
    }
    if !sso.key.is_empty() && sso.key != key {
        return Ok(Err("unknown configuration key"));
    }
    Ok(addresses(attempt.state, sso)
        .await?
        .ok_or("no PublicWebAddress configured"))
}

async fn start(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(key): ApiPath<String>,
) -> AppResult<SsoRedirect> {
    let sso: Sso = settings::get(&state.db).await?;
    let attempt = Attempt {
        state: &state,
        sso: &sso,
        peer: &peer,
        headers: &headers,
        flow: flow(&sso),
    };
    let addresses = match configured(&attempt, &key).await? {
        Ok(a) => a,
        Err(reason) => return attempt.refuse(reason).await,
    };
    let (metadata, settings) = (sso.saml_idp_metadata.clone(), sso.clone());
    let made = tokio::task::spawn_blocking(move || {
        let idp = saml::idp_metadata(&metadata)?;
        let sp = saml::service_provider(&addresses, idp);
        let destination = saml::sign_on_address(&settings, &sp).ok_or("no IdP sign-on address")?;
        saml::authn_request(&sp, &destination, "").map_err(|e| {
            tracing::warn!(error = e, "AuthnRequest not made");
            "AuthnRequest not made"
        })
    })
    .await
    .map_err(AppError::internal)?;
    let (id, location) = match made {
        Ok(m) => m,
        Err(reason) => return attempt.refuse(reason).await,
    };
    let now = now_ms();
    store::sso::put(
        &state.db,
        &once_key(REQUEST_KEY, &id),
        now + saml::REQUEST_TTL_MS,
        now,
    )
    .await?;
    Ok(SsoRedirect {
        location,
        cookie: None,
    })
}

#[derive(Deserialize, schemars::JsonSchema)]
struct AcsForm {
    #[serde(rename = "SAMLResponse", default)]
    saml_response: String,
    #[serde(rename = "RelayState", default)]
    #[allow(dead_code)]
    relay_state: String,
}

async fn acs(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(key): ApiPath<String>,
    form: Result<Form<AcsForm>, FormRejection>,
) -> AppResult<SsoRedirect> {
    let sso: Sso = settings::get(&state.db).await?;
    let attempt = Attempt {
        state: &state,
        sso: &sso,
        peer: &peer,
        headers: &headers,
        flow: flow(&sso),
    };
    let addresses = match configured(&attempt, &key).await? {
        Ok(a) => a,
        Err(reason) => return attempt.refuse(reason).await,
    };
    let Ok(Form(form)) = form else {
        return attempt.refuse(Refusal::Malformed.reason()).await;
    };
    // Decoding and a first read (no trust in it yet) off the request workers.
    let encoded = form.saml_response;
    let read = tokio::task::spawn_blocking(move || {
        let xml = saml::decode(&encoded)?;
        let outline = saml::outline(&xml)?;
        Ok::<_, Refusal>((xml, outline))
    })
    .await
    .map_err(AppError::internal)?;
    let (xml, outline) = match read {
        Ok(r) => r,
        Err(refusal) => return attempt.refuse(refusal.reason()).await,
    };
    let now = now_ms();
    // A replay is named as such (the store below is what actually refuses it).
    for id in &outline.assertion_ids {
        if store::sso::is_live(&state.db, &once_key(ASSERTION_KEY, id), now).await? {
            return attempt.refuse("replayed assertion").await;
        }
    }
    let mut request_id = None;
    if let Some(id) = &outline.in_response_to {
        if store::sso::is_live(&state.db, &once_key(REQUEST_KEY, id), now).await? {
            request_id = Some(id.clone());
        }
    }
    let metadata = sso.saml_idp_metadata.clone();
    let checked = tokio::task::spawn_blocking(move || {
        let idp = saml::idp_metadata(&metadata).map_err(|_| Refusal::BadSignature)?;
        let sp = saml::service_provider(&addresses, idp);
        saml::verify(&sp, &xml, &outline, request_id.as_deref())
    })
    .await
    .map_err(AppError::internal)?;
    let verified = match checked {
        Ok(v) => v,
        Err(refusal) => return attempt.refuse(refusal.reason()).await,
    };
    let Some(identifier) = saml::identifier(
        &verified.assertion,
        &sso.saml_name_id_claim_name,
        &sso.saml_mrn_alias_type,
    ) else {
        return attempt.refuse(Refusal::NoIdentifier.reason()).await;
    };
    let assertion_key = once_key(ASSERTION_KEY, &verified.assertion_id);
    let request_key = once_key(REQUEST_KEY, &verified.in_response_to);
    attempt
        .sign_in(
            &identifier,
            &[
                Once::Use {
                    key: &assertion_key,
                    until: verified.keep_until_ms,
                    reason: "replayed assertion",
                },
                Once::Take {
                    key: &request_key,
                    reason: Refusal::WrongInResponseTo.reason(),
                },
            ],
        )
        .await
}

async fn metadata(
    State(state): State<AppState>,
    ApiPath(key): ApiPath<String>,
) -> AppResult<File<SamlMetadataFile>> {
    let sso: Sso = settings::get(&state.db).await?;
    if !sso.key.is_empty() && sso.key != key {
        return Err(AppError::NotFound);
    }
    let addresses = addresses(&state, &sso).await?.ok_or(AppError::NotFound)?;
    let xml = tokio::task::spawn_blocking(move || {
        let sp = saml::service_provider(&addresses, Default::default());
        saml::sp_metadata(&sp)
    })
    .await
    .map_err(AppError::internal)?
    .map_err(AppError::internal)?;
    Ok(File::document(xml.into_bytes()))
}
