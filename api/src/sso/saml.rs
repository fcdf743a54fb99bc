//! SAML 2.0 service provider (issue 19; IntegrationType Saml and
//! SamlCernerHealtheLifeWithServiceRequest) on samael with its `xmlsec` feature: libxmlsec1
//! verifies the XML signatures against the certificate of the configured IdP metadata, and only
//! the signed parts of a response are read.
//!
//! What is refused, each with its own audited reason ([`Refusal`]): a response without a
//! signature; a signature or digest other than SHA-256 or better (SHA-1 above all); a signature
//! that does not verify (altered after signing, another key); another SP's audience; a
//! Destination or Recipient other than this portal's ACS address; a response or assertion
//! outside its time window; an InResponseTo that is not an AuthnRequest this portal sent (and
//! has not used yet); an issuer other than the IdP of the metadata. A replayed assertion (its ID
//! kept until its NotOnOrAfter) and an unknown patient are refused by the route.
//!
//! The settings: EntityId is this portal's entity ID (the audience; the metadata address when
//! empty); SignOnUrl the IdP's sign-on address (its HTTP-Redirect SingleSignOnService from the
//! metadata when empty); with SamlCernerHealtheLifeWithServiceRequest the AuthnRequest goes to
//! SamlServiceRequestUrl instead. The MRN is the NameID, or the first value of the attribute
//! named SamlNameIdClaimName; with SamlMrnAliasType the value is the one written
//! `{alias type}:{MRN}` (or `{alias type}^{MRN}`) whose alias type matches (Cerner sends aliases
//! of several types in one attribute).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use chrono::{DateTime, TimeDelta, Utc};
use quick_xml::events::Event;
use quick_xml::Reader;
use samael::crypto::AllowedSignatureAlgorithm;
use samael::metadata::{EntityDescriptor, HTTP_REDIRECT_BINDING};
use samael::schema::Assertion;
use samael::service_provider::{Error as SpError, ServiceProvider};
use samael::traits::ToXml;
use wasm_core::settings::sso::{
    Sso, IDP_METADATA_INVALID, IDP_METADATA_NO_SIGNING_CERTIFICATE, SAML_WITH_SERVICE_REQUEST,
};

/// How long an AuthnRequest may wait for its response.
pub const REQUEST_TTL_MS: i64 = 10 * 60_000;
/// How old a response or assertion (IssueInstant) may be.
pub const MAX_ISSUE_DELAY_SECS: i64 = 120;
/// Clock difference allowed on NotBefore / NotOnOrAfter.
pub const CLOCK_SKEW_SECS: i64 = 60;
/// Longest SAMLResponse accepted (base64; a signed response is a few kilobytes).
pub const MAX_RESPONSE: usize = 256 * 1024;

/// Signature methods accepted: SHA-256 or better (samael then also requires the matching digest).
const ALLOWED_SIGNATURES: [AllowedSignatureAlgorithm; 6] = [
    AllowedSignatureAlgorithm::RsaSha256,
    AllowedSignatureAlgorithm::RsaSha384,
    AllowedSignatureAlgorithm::RsaSha512,
    AllowedSignatureAlgorithm::EcdsaSha256,
    AllowedSignatureAlgorithm::EcdsaSha384,
    AllowedSignatureAlgorithm::EcdsaSha512,
];
const ALLOWED_DIGESTS: [&str; 4] = [
    "http://www.w3.org/2001/04/xmlenc#sha256",
    "http://www.w3.org/2001/04/xmldsig-more#sha384",
    "http://www.w3.org/2001/04/xmlenc#sha512",
    "http://www.w3.org/2001/04/xmldsig-more#sha512",
];

/// Why a response was refused (audited; the user sees the one SSO error page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Malformed,
    Unsigned,
    /// A SHA-1 (or other weak or unknown) signature or digest algorithm.
    WeakAlgorithm,
    BadSignature,
    WrongAudience,
    WrongDestination,
    Stale,
    WrongInResponseTo,
    WrongIssuer,
    NotSuccess,
    NoIdentifier,
}

impl Refusal {
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Malformed => "malformed SAML response",
            Refusal::Unsigned => "unsigned SAML response",
            Refusal::WeakAlgorithm => "SHA-1 or weak signature algorithm",
            Refusal::BadSignature => "SAML signature not valid",
            Refusal::WrongAudience => "wrong audience",
            Refusal::WrongDestination => "wrong destination",
            Refusal::Stale => "stale SAML response",
            Refusal::WrongInResponseTo => "wrong InResponseTo",
            Refusal::WrongIssuer => "wrong issuer",
            Refusal::NotSuccess => "IdP status not success",
            Refusal::NoIdentifier => "no patient identifier in the assertion",
        }
    }
}

/// This portal's SP addresses under its public address.
#[derive(Debug, Clone)]
pub struct SpAddresses {
    pub entity_id: String,
    pub metadata_url: String,
    pub acs_url: String,
}

impl SpAddresses {
    /// `public` is CorePortal's PublicWebAddress; `key` the configuration's path segment
    /// ([`crate::sso::client_id`]).
    pub fn new(public: &str, key: &str, configured_entity_id: &str) -> Option<SpAddresses> {
        let base = public.trim().trim_end_matches('/');
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return None;
        }
        let metadata_url = format!("{base}/sso/saml/{key}/metadata");
        let entity_id = match configured_entity_id.trim() {
            "" => metadata_url.clone(),
            e => e.to_owned(),
        };
        Some(SpAddresses {
            entity_id,
            metadata_url,
            acs_url: format!("{base}/sso/saml/{key}/acs"),
        })
    }
}

/// Parses IdP metadata and checks that it names a signing certificate samael can read (the SSO
/// save's check, and again before each use).
pub fn idp_metadata(xml: &str) -> Result<EntityDescriptor, &'static str> {
    let md: EntityDescriptor = xml.trim().parse().map_err(|_| IDP_METADATA_INVALID)?;
    if md.idp_sso_descriptors.as_ref().is_none_or(Vec::is_empty) {
        return Err(IDP_METADATA_INVALID);
    }
    let sp = ServiceProvider {
        idp_metadata: md.clone(),
        ..ServiceProvider::default()
    };
    match sp.idp_signing_certs() {
        Ok(Some(certs)) if !certs.is_empty() => Ok(md),
        _ => Err(IDP_METADATA_NO_SIGNING_CERTIFICATE),
    }
}

/// The samael service provider for this configuration.
pub fn service_provider(addresses: &SpAddresses, idp: EntityDescriptor) -> ServiceProvider {
    ServiceProvider {
        entity_id: Some(addresses.entity_id.clone()),
        metadata_url: Some(addresses.metadata_url.clone()),
        acs_url: Some(addresses.acs_url.clone()),
        // Required by samael's metadata builder; left out of the published metadata.
        slo_url: Some(addresses.acs_url.clone()),
        idp_metadata: idp,
        allow_idp_initiated: false,
        max_issue_delay: TimeDelta::seconds(MAX_ISSUE_DELAY_SECS),
        max_clock_skew: TimeDelta::seconds(CLOCK_SKEW_SECS),
        allowed_signature_algorithms: Some(ALLOWED_SIGNATURES.to_vec()),
        ..ServiceProvider::default()
    }
}

/// The SP metadata document (an HTTP-POST ACS, assertions must be signed; no logout service).
pub fn sp_metadata(sp: &ServiceProvider) -> Result<String, String> {
    let mut md = sp.metadata().map_err(|e| e.to_string())?;
    for d in md.sp_sso_descriptors.iter_mut().flatten() {
        d.single_logout_services = None;
    }
    md.to_string().map_err(|e| format!("{e:?}"))
}

/// Where the AuthnRequest goes: the service request address for the with-service-request
/// variant, else SignOnUrl, else the metadata's HTTP-Redirect sign-on service.
pub fn sign_on_address(sso: &Sso, sp: &ServiceProvider) -> Option<String> {
    let pick = |s: &str| Some(s.trim().to_owned()).filter(|s| !s.is_empty());
    if sso.integration_type == SAML_WITH_SERVICE_REQUEST {
        return pick(&sso.saml_service_request_url);
    }
    pick(&sso.sign_on_url).or_else(|| sp.sso_binding_location(HTTP_REDIRECT_BINDING))
}

/// An AuthnRequest (HTTP-Redirect binding): its ID (to store) and the address to send the
/// browser to.
pub fn authn_request(
    sp: &ServiceProvider,
    destination: &str,
    relay_state: &str,
) -> Result<(String, String), String> {
    let mut request = sp
        .make_authentication_request(destination)
        .map_err(|e| e.to_string())?;
    // samael's own IDs carry 32 random bits; an ID must not be guessable.
    request.id = format!("id-{}", crate::auth::random_token());
    let url = request
        .redirect(relay_state)
        .map_err(|e| e.to_string())?
        .ok_or("no destination")?;
    Ok((request.id, url.to_string()))
}

/// What a response says before its signature is checked: used only to choose the refusal
/// reason and to look up the request it answers. Nothing here is trusted.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub signed: bool,
    pub weak_algorithm: bool,
    pub in_response_to: Option<String>,
    pub assertion_ids: Vec<String>,
}

/// Reads a response's outline (signatures and their algorithms, InResponseTo, assertion IDs).
pub fn outline(xml: &str) -> Result<Outline, Refusal> {
    let mut reader = Reader::from_str(xml);
    let mut out = Outline::default();
    let mut root = true;
    loop {
        let event = reader.read_event().map_err(|_| Refusal::Malformed)?;
        let element = match &event {
            Event::Start(e) | Event::Empty(e) => e.clone(),
            Event::Eof if root => return Err(Refusal::Malformed),
            Event::Eof => break,
            _ => continue,
        };
        let local = element.local_name();
        let attr = |name: &[u8]| -> Option<String> {
            element
                .attributes()
                .flatten()
                .find(|a| a.key.local_name().as_ref() == name)
                .and_then(|a| {
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .ok()
                        .map(|v| v.into_owned())
                })
        };
        match local.as_ref() {
            b"Response" if root => out.in_response_to = attr(b"InResponseTo"),
            b"Assertion" => out.assertion_ids.extend(attr(b"ID")),
            b"SignatureValue" => out.signed = true,
            b"SignatureMethod" => {
                let alg = attr(b"Algorithm").unwrap_or_default();
                if !ALLOWED_SIGNATURES.iter().any(|a| a.signature_uri() == alg) {
                    out.weak_algorithm = true;
                }
            }
            b"DigestMethod" => {
                let alg = attr(b"Algorithm").unwrap_or_default();
                if !ALLOWED_DIGESTS.contains(&alg.as_str()) {
                    out.weak_algorithm = true;
                }
            }
            _ => {}
        }
        root = false;
    }
    Ok(out)
}

/// A verified assertion: what the route needs.
#[derive(Debug, Clone)]
pub struct Verified {
    pub assertion_id: String,
    /// Until when the assertion ID is kept (ms): its latest NotOnOrAfter plus the clock skew.
    pub keep_until_ms: i64,
    pub in_response_to: String,
    pub assertion: Assertion,
}

/// Decodes the SAMLResponse form value (base64 of the XML).
pub fn decode(saml_response: &str) -> Result<String, Refusal> {
    if saml_response.len() > MAX_RESPONSE {
        return Err(Refusal::Malformed);
    }
    let compact: String = saml_response
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let bytes = STANDARD.decode(compact).map_err(|_| Refusal::Malformed)?;
    String::from_utf8(bytes).map_err(|_| Refusal::Malformed)
}

/// Checks a response (CPU and libxml2: call it on a blocking thread). `request_id`: the ID of
/// an AuthnRequest this portal sent and has not used, when the response names one.
pub fn verify(
    sp: &ServiceProvider,
    xml: &str,
    outline: &Outline,
    request_id: Option<&str>,
) -> Result<Verified, Refusal> {
    if !outline.signed {
        return Err(Refusal::Unsigned);
    }
    if outline.weak_algorithm {
        return Err(Refusal::WeakAlgorithm);
    }
    let ids: Vec<&str> = request_id.into_iter().collect();
    let assertion = sp
        .parse_xml_response(xml, Some(&ids))
        .map_err(|e| classify(&e))?;
    let in_response_to = request_id.ok_or(Refusal::WrongInResponseTo)?.to_owned();
    Ok(Verified {
        keep_until_ms: keep_until(&assertion).timestamp_millis(),
        assertion_id: assertion.id.clone(),
        in_response_to,
        assertion,
    })
}

fn keep_until(a: &Assertion) -> DateTime<Utc> {
    let confirmations = a
        .subject
        .iter()
        .flat_map(|s| s.subject_confirmations.iter().flatten())
        .filter_map(|c| c.subject_confirmation_data.as_ref()?.not_on_or_after);
    let condition = a.conditions.iter().filter_map(|c| c.not_on_or_after);
    let latest = confirmations
        .chain(condition)
        .max()
        .unwrap_or(a.issue_instant + TimeDelta::seconds(MAX_ISSUE_DELAY_SECS));
    latest + TimeDelta::seconds(CLOCK_SKEW_SECS)
}

fn classify(e: &SpError) -> Refusal {
    match e {
        SpError::FailedToValidateSignature | SpError::FailedToParseCert { .. } => {
            Refusal::BadSignature
        }
        SpError::AssertionConditionAudienceRestrictionFailed { .. } => Refusal::WrongAudience,
        SpError::DestinationValidationError { .. } | SpError::AssertionRecipientMismatch { .. } => {
            Refusal::WrongDestination
        }
        SpError::AssertionExpired { .. }
        | SpError::ResponseExpired { .. }
        | SpError::AssertionConditionExpired { .. }
        | SpError::AssertionConditionExpiredBefore { .. }
        | SpError::AssertionSubjectConfirmationExpired { .. }
        | SpError::AssertionSubjectConfirmationExpiredBefore { .. } => Refusal::Stale,
        SpError::ResponseInResponseToInvalid { .. }
        | SpError::AssertionInResponseToInvalid { .. } => Refusal::WrongInResponseTo,
        SpError::ResponseIssuerMismatch { .. } | SpError::AssertionIssuerMismatch { .. } => {
            Refusal::WrongIssuer
        }
        SpError::ResponseBadStatusCode { .. } => Refusal::NotSuccess,
        _ => Refusal::Malformed,
    }
}

/// The patient identifier of a verified assertion (see the module's notes).
pub fn identifier(a: &Assertion, claim: &str, alias_type: &str) -> Option<String> {
    let claim = claim.trim();
    let values: Vec<String> = if claim.is_empty() {
        a.subject
            .as_ref()
            .and_then(|s| s.name_id.as_ref())
            .map(|n| vec![n.value.clone()])
            .unwrap_or_default()
    } else {
        a.attribute_statements
            .iter()
            .flatten()
            .flat_map(|s| s.attributes.iter())
            .filter(|attr| {
                attr.name.as_deref() == Some(claim) || attr.friendly_name.as_deref() == Some(claim)
            })
            .flat_map(|attr| attr.values.iter().filter_map(|v| v.value.clone()))
            .collect()
    };
    let alias_type = alias_type.trim();
    let found = if alias_type.is_empty() {
        values.into_iter().next()
    } else {
        values.into_iter().find_map(|v| {
            let (kind, value) = v.split_once(':').or_else(|| v.split_once('^'))?;
            kind.trim()
                .eq_ignore_ascii_case(alias_type)
                .then(|| value.trim().to_owned())
        })
    };
    found
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outline_reads_signatures_algorithms_and_ids() {
        let xml = r#"<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="r1" InResponseTo="id-abc"><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/><ds:Reference><ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/></ds:Reference></ds:SignedInfo><ds:SignatureValue>x</ds:SignatureValue></ds:Signature><saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="a1"/></samlp:Response>"#;
        let o = outline(xml).unwrap();
        assert!(o.signed && o.weak_algorithm);
        assert_eq!(o.in_response_to.as_deref(), Some("id-abc"));
        assert_eq!(o.assertion_ids, vec!["a1".to_owned()]);
        let strong = xml
            .replace(
                "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
                "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            )
            .replace(
                "http://www.w3.org/2000/09/xmldsig#sha1",
                "http://www.w3.org/2001/04/xmlenc#sha256",
            );
        assert!(!outline(&strong).unwrap().weak_algorithm);
        assert_eq!(outline("<a><b></a>"), Err(Refusal::Malformed));
        assert_eq!(outline(""), Err(Refusal::Malformed));
    }

    #[test]
    fn addresses_need_a_public_web_address() {
        assert!(SpAddresses::new("", "k", "").is_none());
        let a = SpAddresses::new("https://portal.example.org/", "clinic7", "").unwrap();
        assert_eq!(a.acs_url, "https://portal.example.org/sso/saml/clinic7/acs");
        assert_eq!(a.entity_id, a.metadata_url);
        let a = SpAddresses::new("https://p.example.org", "k", "urn:portal").unwrap();
        assert_eq!(a.entity_id, "urn:portal");
    }

    #[test]
    fn metadata_without_a_signing_certificate_is_refused() {
        let xml = r#"<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.org"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.org/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>"#;
        assert_eq!(
            idp_metadata(xml).err(),
            Some(IDP_METADATA_NO_SIGNING_CERTIFICATE)
        );
        assert_eq!(idp_metadata("not xml").err(), Some(IDP_METADATA_INVALID));
    }
}
