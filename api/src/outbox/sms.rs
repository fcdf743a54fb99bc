//! SMS through a Twilio-style HTTP API: POST {base}/2010-04-01/Accounts/{sid}/Messages.json with
//! basic auth (sid, token) and the form To, From, Body. Settings: CoreNotifications TwilioAccSid,
//! TwilioAuthToken, TwilioFrom and AzureTwilioEndpoint (the base URL; empty = Twilio's own), so
//! tests point it at a local endpoint.

use std::time::Duration;

use wasm_core::settings::core_notifications::CoreNotifications;

use super::OutboxRow;

pub const DEFAULT_BASE_URL: &str = "https://api.twilio.com";

#[derive(Debug, Clone, Default)]
pub struct SmsSettings {
    pub account_sid: String,
    pub auth_token: String,
    pub from: String,
    pub base_url: String,
}

impl SmsSettings {
    pub fn from_settings(n: &CoreNotifications) -> SmsSettings {
        let base = n
            .azure_twilio_endpoint
            .trim()
            .trim_end_matches('/')
            .to_owned();
        SmsSettings {
            account_sid: n.twilio_acc_sid.trim().to_owned(),
            // Stored encrypted by the settings engine (CoreNotifications SECRETS).
            auth_token: crate::secrets::reveal(&n.twilio_auth_token),
            from: n.twilio_from.trim().to_owned(),
            base_url: if base.is_empty() {
                DEFAULT_BASE_URL.to_owned()
            } else {
                base
            },
        }
    }

    pub fn messages_url(&self) -> String {
        format!(
            "{}/2010-04-01/Accounts/{}/Messages.json",
            self.base_url, self.account_sid
        )
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

pub async fn send(
    client: &reqwest::Client,
    settings: &SmsSettings,
    row: &OutboxRow,
) -> Result<String, String> {
    if settings.account_sid.is_empty() || settings.from.is_empty() {
        return Err("TwilioAccSid or TwilioFrom is not set".to_owned());
    }
    let response = client
        .post(settings.messages_url())
        .basic_auth(&settings.account_sid, Some(&settings.auth_token))
        .form(&[
            ("To", row.recipient.as_str()),
            ("From", settings.from.as_str()),
            ("Body", row.body_text.as_str()),
        ])
        .send()
        .await
        .map_err(|e| format!("SMS provider: {e}"))?;
    let status = response.status();
    let body = response.text().await.unwrap_or_default();
    if status.is_success() {
        // The provider's answer: its status and the start of its body (a Twilio message sid).
        Ok(format!(
            "{status}: {}",
            body.chars().take(200).collect::<String>()
        ))
    } else {
        Err(format!(
            "SMS provider answered {status}: {}",
            body.chars().take(200).collect::<String>()
        ))
    }
}
