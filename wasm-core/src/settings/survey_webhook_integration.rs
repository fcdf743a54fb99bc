//! SurveyWebhookIntegration (spec 04 §3 "Webhook settings", §5 "Webhook save"): a list of
//! webhooks, each with request headers (Name, Value) and body parameters (Key = the type,
//! Value = the name), plus the option lists the form offers (WebHookDataKeys for a parameter's
//! type, WebHookAuthorizationTypes).
//!
//! The form shows a webhook's Url, headers and parameters only while it is enabled (§2), so the
//! required rules apply to an active webhook; lengths are bounded always. An invalid form is
//! refused with the toast [`FORM_INVALID`].

use super::checks::*;
use super::{RowSecret, SettingsGroup};
use crate::survey_integration::{AUTHORIZATION_TYPES, AUTH_NONE, DATA_KEYS};
use crate::ValidationErrors;

pub const HEADER_NAME_REQUIRED: &str = "Header name is required";
pub const HEADER_VALUE_REQUIRED: &str = "Header value is required";
pub const PARAMETER_NAME_REQUIRED: &str = "Parameter name is required";
pub const PARAMETER_TYPE_REQUIRED: &str = "Parameter type is required";
/// Not in the spec: an active webhook outside test mode has somewhere to send to.
pub const URL_REQUIRED: &str = "Url is required";
/// Longest header or parameter name, type or authorization type.
pub const NAME_MAX: usize = 256;

crate::settings_struct! {
    #[derive(Default)]
    pub struct WebHookHeader {
        "Name" name: String,
        "Value" value: String,
        /// A required row cannot be removed (§2).
        "IsRequired" is_required: bool,
    }
}

crate::settings_struct! {
    #[derive(Default)]
    pub struct WebHookParameter {
        /// The parameter's type (one of WebHookDataKeys).
        "Key" key: String,
        /// The parameter's name.
        "Value" value: String,
        /// A required row cannot be removed (§2).
        "IsRequired" is_required: bool,
    }
}

crate::settings_struct! {
    #[derive(Default)]
    pub struct WebHook {
        "IsActive" is_active: bool,
        /// In test mode the Url is disabled (§4).
        "IsTestMode" is_test_mode: bool,
        "Url" url: String,
        "AuthorizationType" authorization_type: String,
        /// Not in the spec: the user name of Basic, the header name of ApiKeyHeader
        /// (default X-Api-Key).
        "AuthorizationName" authorization_name: String,
        /// Not in the spec: the webhook's own credential (Basic password, Bearer token, API key,
        /// HMAC-SHA256 key); stored encrypted, answered empty, kept by a save that leaves it
        /// empty (`SettingsGroup::ROW_SECRETS`).
        "AuthorizationSecret" authorization_secret: String,
        /// Set by the page to remove the stored credential on save; never stored true.
        "ClearAuthorizationSecret" clear_authorization_secret: bool,
        /// Not in the spec: the server's name for the webhook, given on its first save. It ties
        /// the webhook to its credential and its deliveries whatever its place in the list.
        "Id" id: String,
        "Headers" headers: Vec<WebHookHeader>,
        "Parameters" parameters: Vec<WebHookParameter>,
    }
}

crate::settings_struct! {
    /// Defaults: one webhook, off; the option lists are the server's (normalize restores them).
    pub struct SurveyWebhookIntegration {
        "WebHooks" web_hooks: Vec<WebHook>,
        "WebHookDataKeys" web_hook_data_keys: Vec<String>,
        "WebHookAuthorizationTypes" web_hook_authorization_types: Vec<String>,
    }
}

impl Default for SurveyWebhookIntegration {
    fn default() -> Self {
        let own = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect();
        // One webhook, off, with the rows a receiver always needs (not removable, §2).
        let hook = WebHook {
            authorization_type: AUTH_NONE.to_owned(),
            headers: vec![WebHookHeader {
                name: "Content-Type".to_owned(),
                value: "application/json".to_owned(),
                is_required: true,
            }],
            parameters: vec![
                WebHookParameter {
                    key: "Event".to_owned(),
                    value: "event".to_owned(),
                    is_required: true,
                },
                WebHookParameter {
                    key: "SurveyId".to_owned(),
                    value: "surveyId".to_owned(),
                    is_required: true,
                },
                WebHookParameter {
                    key: "Answers".to_owned(),
                    value: "answers".to_owned(),
                    is_required: false,
                },
            ],
            ..WebHook::default()
        };
        SurveyWebhookIntegration {
            web_hooks: vec![hook],
            web_hook_data_keys: own(DATA_KEYS),
            web_hook_authorization_types: own(AUTHORIZATION_TYPES),
        }
    }
}

/// `value` must be one of `choices` when both are given (the option lists come from the server).
fn offered(e: &mut ValidationErrors, field: &str, value: &str, choices: &[String]) {
    if !value.is_empty() && !choices.is_empty() && !choices.iter().any(|c| c == value) {
        let choices: Vec<&str> = choices.iter().map(String::as_str).collect();
        one_of(e, field, value, &choices);
    }
}

impl SettingsGroup for SurveyWebhookIntegration {
    const NAME: &'static str = "SurveyWebhookIntegration";
    const ROW_SECRETS: &'static [RowSecret] = &[RowSecret {
        list: "WebHooks",
        id: "Id",
        secret: "AuthorizationSecret",
        clear: "ClearAuthorizationSecret",
    }];

    /// The option lists are the server's own, whatever a page sends back.
    fn normalize(&mut self) {
        let d = SurveyWebhookIntegration::default();
        self.web_hook_data_keys = d.web_hook_data_keys;
        self.web_hook_authorization_types = d.web_hook_authorization_types;
    }

    /// Spec 04 §2: the Url is disabled in test mode.
    fn disabled(&self) -> Vec<String> {
        (0..self.web_hooks.len())
            .filter(|i| self.web_hooks[*i].is_test_mode)
            .map(|i| format!("WebHooks.{i}.Url"))
            .collect()
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (i, hook) in self.web_hooks.iter().enumerate() {
            let at = |field: &str| format!("WebHooks.{i}.{field}");
            let active = hook.is_active;
            if active && !hook.is_test_mode && hook.url.trim().is_empty() {
                e.add(&at("Url"), URL_REQUIRED);
            } else {
                web_address(&mut e, &at("Url"), &hook.url);
            }
            // A kept credential is checked as the server's stand-in, never as its ciphertext.
            text(
                &mut e,
                &at("AuthorizationSecret"),
                &hook.authorization_secret,
                TEXT_MAX,
            );
            if text(
                &mut e,
                &at("AuthorizationType"),
                &hook.authorization_type,
                NAME_MAX,
            ) {
                offered(
                    &mut e,
                    &at("AuthorizationType"),
                    &hook.authorization_type,
                    &self.web_hook_authorization_types,
                );
            }
            for (j, h) in hook.headers.iter().enumerate() {
                let name = at(&format!("Headers.{j}.Name"));
                let value = at(&format!("Headers.{j}.Value"));
                if active && h.name.trim().is_empty() {
                    e.add(&name, HEADER_NAME_REQUIRED);
                } else {
                    text(&mut e, &name, &h.name, NAME_MAX);
                }
                if active && h.value.trim().is_empty() {
                    e.add(&value, HEADER_VALUE_REQUIRED);
                } else {
                    text(&mut e, &value, &h.value, TEXT_MAX);
                }
            }
            for (j, p) in hook.parameters.iter().enumerate() {
                let kind = at(&format!("Parameters.{j}.Key"));
                let name = at(&format!("Parameters.{j}.Value"));
                if active && p.key.trim().is_empty() {
                    e.add(&kind, PARAMETER_TYPE_REQUIRED);
                } else if text(&mut e, &kind, &p.key, NAME_MAX) {
                    offered(&mut e, &kind, &p.key, &self.web_hook_data_keys);
                }
                if active && p.value.trim().is_empty() {
                    e.add(&name, PARAMETER_NAME_REQUIRED);
                } else {
                    text(&mut e, &name, &p.value, NAME_MAX);
                }
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook() -> WebHook {
        WebHook {
            is_active: true,
            url: "https://hooks.example.org/survey".into(),
            headers: vec![WebHookHeader::default()],
            parameters: vec![WebHookParameter::default()],
            ..Default::default()
        }
    }

    #[test]
    fn header_and_parameter_rows_need_both_parts() {
        let s = SurveyWebhookIntegration {
            web_hooks: vec![hook()],
            ..Default::default()
        };
        let e = s.validate();
        assert_eq!(e.field("WebHooks.0.Headers.0.Name"), [HEADER_NAME_REQUIRED]);
        assert_eq!(
            e.field("WebHooks.0.Headers.0.Value"),
            [HEADER_VALUE_REQUIRED]
        );
        assert_eq!(
            e.field("WebHooks.0.Parameters.0.Value"),
            [PARAMETER_NAME_REQUIRED]
        );
        assert_eq!(
            e.field("WebHooks.0.Parameters.0.Key"),
            [PARAMETER_TYPE_REQUIRED]
        );
        assert!(e.field("WebHooks.0.Url").is_empty());
    }

    #[test]
    fn a_disabled_webhook_keeps_its_unfinished_rows() {
        let s = SurveyWebhookIntegration {
            web_hooks: vec![WebHook {
                is_active: false,
                url: String::new(),
                ..hook()
            }],
            ..Default::default()
        };
        assert!(s.validate().is_valid(), "{:?}", s.validate());
    }

    #[test]
    fn url_is_required_outside_test_mode_and_must_be_web() {
        let mut h = hook();
        h.headers.clear();
        h.parameters.clear();
        h.url = String::new();
        let mut s = SurveyWebhookIntegration {
            web_hooks: vec![h],
            ..Default::default()
        };
        assert_eq!(s.validate().field("WebHooks.0.Url"), [URL_REQUIRED]);
        s.web_hooks[0].is_test_mode = true;
        assert!(s.validate().is_valid());
        s.web_hooks[0].url = "ftp://x".into();
        assert_eq!(
            s.validate().field("WebHooks.0.Url"),
            ["Must start with http:// or https://"]
        );
    }

    #[test]
    fn choices_come_from_the_offered_lists() {
        let mut h = hook();
        h.headers = vec![WebHookHeader {
            name: "Authorization".into(),
            value: "Bearer abc".into(),
            is_required: true,
        }];
        h.parameters = vec![WebHookParameter {
            key: "Mrn".into(),
            value: "patientId".into(),
            is_required: false,
        }];
        h.authorization_type = "Digest".into();
        let mut s = SurveyWebhookIntegration {
            web_hooks: vec![h],
            web_hook_data_keys: vec!["SurveyId".into()],
            web_hook_authorization_types: vec!["None".into(), "Bearer".into()],
        };
        let e = s.validate();
        assert_eq!(
            e.field("WebHooks.0.AuthorizationType"),
            ["Choose one of: None, Bearer"]
        );
        assert_eq!(
            e.field("WebHooks.0.Parameters.0.Key"),
            ["Choose one of: SurveyId"]
        );
        s.web_hook_data_keys.push("Mrn".into());
        s.web_hooks[0].authorization_type = "Bearer".into();
        assert!(s.validate().is_valid());
    }
}
