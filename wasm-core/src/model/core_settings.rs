//! The calls of Core Settings (spec 03 §7 "Connection tests") beside the settings groups
//! themselves: the bodies and answers of the folder, FoxPro and RadView tests, and the
//! Notifications page's test email and SMS.

use crate::wire;

wire! {
    /// `?address=` of the web address tests (spec 03 §7).
    #[serde(default)]
    #[derive(Default)]
    pub struct WebAddressQuery {
        pub address: String,
    }

    /// POST /api/connectionTest/testMagviewFolder (spec 03 §7: body FolderPath).
    #[serde(default)]
    #[derive(Default)]
    pub struct FolderPathTest {
        #[serde(rename = "FolderPath")] pub folder_path: String,
    }

    /// POST /api/connectionTest/testFoxproConnection and detectRadViewPath (body DbPath).
    #[serde(default)]
    #[derive(Default)]
    pub struct DbPathTest {
        #[serde(rename = "DbPath")] pub db_path: String,
    }

    /// The answer of detectRadViewPath (spec 03 §7: radViewPath), with why it was not found.
    #[serde(rename_all = "camelCase")]
    pub struct RadViewPathResult {
        pub success: bool,
        pub rad_view_path: Option<String>,
        pub error: Option<String>,
    }

    /// Core Settings > Notifications "Send test email" / "Send test SMS": the address or phone
    /// number to send to.
    #[serde(default)]
    #[derive(Default)]
    pub struct TestMessage {
        #[serde(rename = "To")] pub to: String,
    }

    /// What the provider answered (the SMTP server's reply, the SMS API's status and body), or
    /// its error.
    #[serde(rename_all = "camelCase")]
    pub struct TestMessageResult {
        pub success: bool,
        pub message: String,
        pub error: Option<String>,
    }
}
