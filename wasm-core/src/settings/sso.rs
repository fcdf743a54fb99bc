//! SSO (spec 03 §3 "SSO configuration", "SSO Management"; §4 "SSO type derived from
//! IntegrationType on load", "SSO type on save", "SSO alternate id"; §5 "SSO").
//!
//! The page shows an SSO type (and, for Decryption, a key type; for Saml, a 'with service
//! request' box) where the document stores one IntegrationType: [`sso_type_of`] gives the
//! page's choice from a stored value, [`integration_type_of`] the value to store.
//! The API reads the Go Back section today from the group named `SsoConfiguration`.

use super::checks::*;
use super::SettingsGroup;
use crate::model::SsoTypeChoice;
use crate::ValidationErrors;

pub const PORTAL_MODES: &[&str] = &["SSO", "PortalLogin"];
pub const DECRYPTION: &str = "Decryption";
pub const SAML: &str = "Saml";
pub const SAML_WITH_SERVICE_REQUEST: &str = "SamlCernerHealtheLifeWithServiceRequest";
pub const KEY_TYPES: &[&str] = &["DecryptionByHash", "DecryptionByPassword"];
/// Epic SMART on FHIR (the value stored as it is).
pub const EPIC: &str = "EpicSmartOnFhirTesseract";
/// The page's SSO type choices (spec 03 §2 "SSO type and key type").
pub const SSO_TYPES: &[&str] = &[DECRYPTION, SAML, EPIC];
/// Spec 03 §5 "SSO": alternate-id SSO without a column in the patients table.
pub const ALTERNATE_ID_COLUMN_INVALID: &str =
    "\"Alternate Id Column In Patients Table\" is invalid";
pub const SSO_TYPE_REQUIRED: &str = "SSO type is required";
pub const KEY_SIZES: &[i32] = &[128, 192, 256];
pub const KEY_SIZE_INVALID: &str = "Key size must be 128, 192 or 256";
pub const RETURN_URL_INVALID: &str = "Must start with http://, https:// or /";
/// Spec 03 §8 "Alternate-id column test".
pub const COLUMN_EXISTS: &str = "Column Exist";
pub const COLUMN_NOT_EXISTS: &str = "Column Not Exist";
/// SAML without an IdP metadata document that names a signing certificate: nothing could be
/// verified, so it is not saved (issue 19).
pub const IDP_METADATA_NO_SIGNING_CERTIFICATE: &str =
    "The IdP metadata must contain a signing certificate";
pub const IDP_METADATA_INVALID: &str = "The IdP metadata is not valid SAML metadata";
/// Longest IdP metadata accepted (a few kilobytes in practice).
pub const IDP_METADATA_MAX: usize = 200_000;

crate::settings_struct! {
    pub struct Sso {
        /// SSO or PortalLogin.
        "PortalMode" portal_mode: String,
        "ShowBackToMainMenuInSSO" show_back_to_main_menu_in_sso: bool,
        "ShowBackToMainMenuAsLinkInSSO" show_back_to_main_menu_as_link_in_sso: bool,
        "ReturnURL" return_url: String,
        "ShowIconInBackToMainMenuInSSO" show_icon_in_back_to_main_menu_in_sso: bool,
        "EnableSsoByAlternateId" enable_sso_by_alternate_id: bool,
        "SsoAlternateIdColumn" sso_alternate_id_column: String,
        /// DecryptionByHash, DecryptionByPassword, Saml, SamlCernerHealtheLifeWithServiceRequest,
        /// EpicSmartOnFhirTesseract, ... (see [`sso_type_of`]).
        "IntegrationType" integration_type: String,
        "AESKey" aes_key: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "CryptographyKeySize" cryptography_key_size: f64,
        "EntityId" entity_id: String,
        "SignOnUrl" sign_on_url: String,
        "CernerOAuthUrl" cerner_o_auth_url: String,
        "CernerOAuthKey" cerner_o_auth_key: String,
        "CernerOAuthSecret" cerner_o_auth_secret: String,
        "IsCernerOAuthEnabled" is_cerner_o_auth_enabled: bool,
        "SamlServiceRequestUrl" saml_service_request_url: String,
        "SamlNameIdClaimName" saml_name_id_claim_name: String,
        "SamlMrnAliasType" saml_mrn_alias_type: String,
        /// The IdP's SAML metadata (XML): its entity ID, sign-on address and signing
        /// certificate. Saving SAML without a signing certificate in it is refused.
        "SamlIdpMetadata" saml_idp_metadata: String,
        "EpicApiBaseUrl" epic_api_base_url: String,
        "EpicClientId" epic_client_id: String,
        "EpicJwtPrivateKey" epic_jwt_private_key: String,
        "EpicClientSecret" epic_client_secret: String,
        "EpicCustomerEndpointWithHsi" epic_customer_endpoint_with_hsi: String,
        "SsoClientRedirectUrl" sso_client_redirect_url: String,
        /// The configuration's key in its test URLs (/sso/saml/{key}, /sso/epic/{key}).
        "Key" key: String,
    }
}

impl Default for Sso {
    fn default() -> Self {
        Sso {
            portal_mode: "PortalLogin".into(),
            show_back_to_main_menu_in_sso: false,
            show_back_to_main_menu_as_link_in_sso: false,
            return_url: String::new(),
            show_icon_in_back_to_main_menu_in_sso: false,
            enable_sso_by_alternate_id: false,
            sso_alternate_id_column: String::new(),
            integration_type: String::new(),
            aes_key: String::new(),
            // The page's placeholder.
            cryptography_key_size: 128.0,
            entity_id: String::new(),
            sign_on_url: String::new(),
            cerner_o_auth_url: String::new(),
            cerner_o_auth_key: String::new(),
            cerner_o_auth_secret: String::new(),
            is_cerner_o_auth_enabled: false,
            saml_service_request_url: String::new(),
            saml_name_id_claim_name: String::new(),
            saml_mrn_alias_type: String::new(),
            saml_idp_metadata: String::new(),
            epic_api_base_url: String::new(),
            epic_client_id: String::new(),
            epic_jwt_private_key: String::new(),
            epic_client_secret: String::new(),
            epic_customer_endpoint_with_hsi: String::new(),
            sso_client_redirect_url: String::new(),
            key: String::new(),
        }
    }
}

/// Spec 03 §4 "SSO type derived from IntegrationType on load".
pub fn sso_type_of(integration_type: &str) -> SsoTypeChoice {
    if integration_type.starts_with(DECRYPTION) {
        SsoTypeChoice {
            sso_type: DECRYPTION.into(),
            key_type: integration_type.into(),
            with_service_request: false,
        }
    } else if integration_type.starts_with(SAML) {
        SsoTypeChoice {
            sso_type: SAML.into(),
            key_type: String::new(),
            with_service_request: integration_type != SAML,
        }
    } else {
        SsoTypeChoice {
            sso_type: integration_type.into(),
            ..SsoTypeChoice::default()
        }
    }
}

/// Spec 03 §4 "SSO type on save": the IntegrationType stored for the page's choice.
pub fn integration_type_of(choice: &SsoTypeChoice) -> String {
    match choice.sso_type.as_str() {
        DECRYPTION => choice.key_type.clone(),
        SAML if choice.with_service_request => SAML_WITH_SERVICE_REQUEST.into(),
        SAML => SAML.into(),
        other => other.into(),
    }
}

/// POST /api/ssoConfiguration/SaveConfiguration{ssoType} (spec 03 §7): the type in the path is
/// the page's SSO type; the key type and the 'with service request' box come from the document's
/// IntegrationType as the page set it. The path's type wins over a document that disagrees.
pub fn integration_type_for_save(path_sso_type: &str, integration_type: &str) -> String {
    let mut choice = sso_type_of(integration_type);
    if choice.sso_type != path_sso_type {
        choice = SsoTypeChoice {
            sso_type: path_sso_type.into(),
            ..SsoTypeChoice::default()
        };
    }
    integration_type_of(&choice)
}

impl Sso {
    /// The origins that may frame the portal's pages in SSO mode (a CSP `frame-ancestors` list):
    /// the EHR's addresses the configuration names (SsoClientRedirectUrl, ReturnURL, Epic's and
    /// Cerner's), as `scheme://host[:port]`. Empty outside SSO mode: then no one may frame them.
    pub fn frame_ancestors(&self) -> Vec<String> {
        if self.portal_mode != "SSO" {
            return Vec::new();
        }
        let mut out: Vec<String> = [
            &self.sso_client_redirect_url,
            &self.return_url,
            &self.epic_customer_endpoint_with_hsi,
            &self.cerner_o_auth_url,
        ]
        .into_iter()
        .filter_map(|url| origin_of(url))
        .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// `scheme://host[:port]` of an absolute http(s) address whose host is plain (letters, digits,
/// dots, dashes, a port): nothing that could break out of a header value.
pub fn origin_of(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    let ok = !authority.is_empty()
        && !authority.contains('@')
        && authority
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    ok.then(|| format!("{scheme}://{}", authority.to_ascii_lowercase()))
}

/// Empty, an http(s) address or a path on this site (what the API offers as a Go Back link).
fn return_url(e: &mut ValidationErrors, value: &str) {
    let v = value.trim();
    let allowed = ["http://", "https://", "/"];
    if !v.is_empty() && !allowed.iter().any(|p| v.starts_with(p)) {
        e.add("ReturnURL", RETURN_URL_INVALID);
    } else {
        text(e, "ReturnURL", value, TEXT_MAX);
    }
}

impl SettingsGroup for Sso {
    const NAME: &'static str = "SSO";
    const SECRETS: &'static [&'static str] = &[
        "AESKey",
        "CernerOAuthKey",
        "CernerOAuthSecret",
        "EpicJwtPrivateKey",
        "EpicClientSecret",
    ];

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        one_of(&mut e, "PortalMode", &self.portal_mode, PORTAL_MODES);
        return_url(&mut e, &self.return_url);
        if self.enable_sso_by_alternate_id && self.sso_alternate_id_column.trim().is_empty() {
            // The server also checks that the column exists before saving anything.
            e.add("SsoAlternateIdColumn", ALTERNATE_ID_COLUMN_INVALID);
        } else {
            text(
                &mut e,
                "SsoAlternateIdColumn",
                &self.sso_alternate_id_column,
                128,
            );
        }
        if self.portal_mode == "SSO" && self.integration_type.trim().is_empty() {
            e.add("IntegrationType", SSO_TYPE_REQUIRED);
        } else {
            text(&mut e, "IntegrationType", &self.integration_type, 100);
        }
        if sso_type_of(&self.integration_type).sso_type == DECRYPTION {
            one_of(&mut e, "IntegrationType", &self.integration_type, KEY_TYPES);
        }
        let size = self.cryptography_key_size;
        if !KEY_SIZES.iter().any(|s| f64::from(*s) == size) {
            e.add("CryptographyKeySize", KEY_SIZE_INVALID);
        }
        text(&mut e, "AESKey", &self.aes_key, 512);
        text(&mut e, "EntityId", &self.entity_id, TEXT_MAX);
        web_address(&mut e, "SignOnUrl", &self.sign_on_url);
        web_address(&mut e, "CernerOAuthUrl", &self.cerner_o_auth_url);
        text(&mut e, "CernerOAuthKey", &self.cerner_o_auth_key, 512);
        text(&mut e, "CernerOAuthSecret", &self.cerner_o_auth_secret, 512);
        web_address(
            &mut e,
            "SamlServiceRequestUrl",
            &self.saml_service_request_url,
        );
        text(
            &mut e,
            "SamlNameIdClaimName",
            &self.saml_name_id_claim_name,
            256,
        );
        text(&mut e, "SamlMrnAliasType", &self.saml_mrn_alias_type, 128);
        text(
            &mut e,
            "SamlIdpMetadata",
            &self.saml_idp_metadata,
            IDP_METADATA_MAX,
        );
        // The signing certificate inside is checked by the server (an XML parser) on save.
        if sso_type_of(&self.integration_type).sso_type == SAML
            && self.saml_idp_metadata.trim().is_empty()
        {
            e.add("SamlIdpMetadata", IDP_METADATA_NO_SIGNING_CERTIFICATE);
        }
        web_address(&mut e, "EpicApiBaseUrl", &self.epic_api_base_url);
        text(&mut e, "EpicClientId", &self.epic_client_id, 256);
        // A PEM private key.
        text(
            &mut e,
            "EpicJwtPrivateKey",
            &self.epic_jwt_private_key,
            10_000,
        );
        text(&mut e, "EpicClientSecret", &self.epic_client_secret, 512);
        web_address(
            &mut e,
            "EpicCustomerEndpointWithHsi",
            &self.epic_customer_endpoint_with_hsi,
        );
        web_address(
            &mut e,
            "SsoClientRedirectUrl",
            &self.sso_client_redirect_url,
        );
        text(&mut e, "Key", &self.key, 128);
        e
    }

    /// The page shows each type's fields only for that type (spec 03 §2 "SAML and Epic fields"),
    /// the Go Back details with the section, the column with its option, Cerner's with its switch.
    fn hidden(&self) -> Vec<&'static str> {
        let mut hidden = Vec::new();
        if !self.show_back_to_main_menu_in_sso {
            hidden.extend([
                "ShowBackToMainMenuAsLinkInSSO",
                "ReturnURL",
                "ShowIconInBackToMainMenuInSSO",
            ]);
        }
        if !self.enable_sso_by_alternate_id {
            hidden.push("SsoAlternateIdColumn");
        }
        let choice = sso_type_of(&self.integration_type);
        if choice.sso_type != DECRYPTION {
            hidden.extend(["AESKey", "CryptographyKeySize"]);
        }
        if choice.sso_type != SAML {
            hidden.extend([
                "EntityId",
                "SignOnUrl",
                "SamlNameIdClaimName",
                "SamlMrnAliasType",
                "SamlIdpMetadata",
            ]);
        }
        if !choice.with_service_request {
            hidden.push("SamlServiceRequestUrl");
        }
        if choice.sso_type != EPIC {
            hidden.extend([
                "EpicApiBaseUrl",
                "EpicClientId",
                "EpicJwtPrivateKey",
                "EpicClientSecret",
                "EpicCustomerEndpointWithHsi",
            ]);
        }
        if !self.is_cerner_o_auth_enabled {
            hidden.extend(["CernerOAuthUrl", "CernerOAuthKey", "CernerOAuthSecret"]);
        }
        hidden
    }

    /// Spec 03 §4 "SSO alternate id": when disabled, the column is cleared on save.
    fn normalize(&mut self) {
        if !self.enable_sso_by_alternate_id {
            self.sso_alternate_id_column.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(sso_type: &str, key_type: &str, with: bool) -> SsoTypeChoice {
        SsoTypeChoice {
            sso_type: sso_type.into(),
            key_type: key_type.into(),
            with_service_request: with,
        }
    }

    #[test]
    fn type_on_load() {
        assert_eq!(
            sso_type_of("DecryptionByHash"),
            choice(DECRYPTION, "DecryptionByHash", false)
        );
        assert_eq!(
            sso_type_of("DecryptionByPassword"),
            choice(DECRYPTION, "DecryptionByPassword", false)
        );
        assert_eq!(sso_type_of("Saml"), choice(SAML, "", false));
        assert_eq!(
            sso_type_of(SAML_WITH_SERVICE_REQUEST),
            choice(SAML, "", true)
        );
        assert_eq!(
            sso_type_of("EpicSmartOnFhirTesseract"),
            choice("EpicSmartOnFhirTesseract", "", false)
        );
        assert_eq!(sso_type_of(""), choice("", "", false));
    }

    #[test]
    fn type_on_save() {
        assert_eq!(
            integration_type_of(&choice(DECRYPTION, "DecryptionByPassword", false)),
            "DecryptionByPassword"
        );
        assert_eq!(integration_type_of(&choice(SAML, "", false)), "Saml");
        assert_eq!(
            integration_type_of(&choice(SAML, "", true)),
            SAML_WITH_SERVICE_REQUEST
        );
        assert_eq!(
            integration_type_of(&choice("EpicSmartOnFhirTesseract", "", false)),
            "EpicSmartOnFhirTesseract"
        );
        // Load then save gives the stored value back.
        for stored in [
            "DecryptionByHash",
            "DecryptionByPassword",
            "Saml",
            SAML_WITH_SERVICE_REQUEST,
            "EpicSmartOnFhirTesseract",
        ] {
            assert_eq!(integration_type_of(&sso_type_of(stored)), stored);
        }
    }

    #[test]
    fn alternate_id_column() {
        let s = Sso {
            enable_sso_by_alternate_id: true,
            ..Default::default()
        };
        assert_eq!(
            s.validate().field("SsoAlternateIdColumn"),
            [ALTERNATE_ID_COLUMN_INVALID]
        );
        let mut off = Sso {
            sso_alternate_id_column: "AltId".into(),
            ..Default::default()
        };
        off.normalize();
        assert_eq!(off.sso_alternate_id_column, "");
        let mut on = Sso {
            enable_sso_by_alternate_id: true,
            sso_alternate_id_column: "AltId".into(),
            ..Default::default()
        };
        on.normalize();
        assert_eq!(on.sso_alternate_id_column, "AltId");
        assert!(on.validate().is_valid());
    }

    #[test]
    fn save_path_type_wins() {
        assert_eq!(
            integration_type_for_save("Decryption", "DecryptionByPassword"),
            "DecryptionByPassword"
        );
        assert_eq!(
            integration_type_for_save("Saml", SAML_WITH_SERVICE_REQUEST),
            SAML_WITH_SERVICE_REQUEST
        );
        assert_eq!(
            integration_type_for_save("Saml", "DecryptionByHash"),
            "Saml"
        );
        assert_eq!(integration_type_for_save(EPIC, "Saml"), EPIC);
    }

    #[test]
    fn frame_ancestors_only_in_sso_mode() {
        let mut s = Sso {
            sso_client_redirect_url: "https://EHR.example.com:8443/launch?x=1".into(),
            return_url: "/home".into(),
            cerner_o_auth_url: "javascript:alert(1)".into(),
            epic_customer_endpoint_with_hsi: "https://a b.example/".into(),
            ..Default::default()
        };
        assert!(s.frame_ancestors().is_empty());
        s.portal_mode = "SSO".into();
        assert_eq!(s.frame_ancestors(), ["https://ehr.example.com:8443"]);
    }

    #[test]
    fn other_rules() {
        let s = Sso {
            portal_mode: "SSO".into(),
            cryptography_key_size: 100.0,
            return_url: "javascript:alert(1)".into(),
            ..Default::default()
        };
        let e = s.validate();
        assert_eq!(e.field("IntegrationType"), [SSO_TYPE_REQUIRED]);
        assert_eq!(e.field("CryptographyKeySize"), [KEY_SIZE_INVALID]);
        assert_eq!(e.field("ReturnURL"), [RETURN_URL_INVALID]);
        let relative = Sso {
            return_url: "/home".into(),
            integration_type: "DecryptionByNothing".into(),
            ..Default::default()
        };
        let e = relative.validate();
        assert!(e.field("ReturnURL").is_empty());
        assert_eq!(
            e.field("IntegrationType"),
            ["Choose one of: DecryptionByHash, DecryptionByPassword"]
        );
    }
}
