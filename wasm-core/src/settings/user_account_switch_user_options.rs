//! UserAccountSwitchUserOptions (spec 03 §3; §2 "History Portal Settings": Show Reports for
//! ClientAdmin users, the front-desk reports toggle, sits on this page). Switches only.
//!
//! IsCernerOAuthEnabled is also a CorePortal field, and that one is what the API reads today
//! (the main menu settings); this page's copy is the spec's.

use super::SettingsGroup;

crate::settings_struct! {
    /// Every field empty or off by default.
    #[derive(Default)]
    pub struct UserAccountSwitchUserOptions {
        "AllowToSwitchLinkedAccounts" allow_to_switch_linked_accounts: bool,
        "AllowToChangeUserInfo" allow_to_change_user_info: bool,
        "IsCernerOAuthEnabled" is_cerner_o_auth_enabled: bool,
        "ShowFrontDeskReports" show_front_desk_reports: bool,
    }
}

impl SettingsGroup for UserAccountSwitchUserOptions {
    const NAME: &'static str = "UserAccountSwitchUserOptions";
}
