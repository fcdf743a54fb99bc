//! CoreMagview (spec 03 §3 "CoreMagview", "Core Settings > MagView"; §4 "Connection type":
//! choosing FoxPro forces DMZ mode off; §5 the MagView form's required fields and the test
//! buttons). The setup wizard (spec 02 §3) writes the same keys (`api` `configuration::group_of`).

use super::checks::*;
use super::SettingsGroup;
use crate::setup::{
    self, DB_NAME_REQUIRED, FOXPRO, LUMINARY_ONE, LUMINARY_ONE_URL_REQUIRED, MAGVIEW_DESKTOP,
    MAGVIEW_PATH_REQUIRED, SERVER_NAME_REQUIRED, SQL, SQL_LOGIN_REQUIRED, SQL_PASSWORD_REQUIRED,
};
use crate::ValidationErrors;

pub const MAGVIEW_MODES: &[&str] = &[MAGVIEW_DESKTOP, LUMINARY_ONE];
pub const DATA_CONNECTION_TYPES: &[&str] = &[SQL, FOXPRO];
pub const SCHEDULER_APPT_TYPE_REQUIRED: &str = "Scheduler appointment type is required";

crate::settings_struct! {
    pub struct CoreMagview {
        /// MagViewDesktop or LuminaryOne (the API reads `== "LuminaryOne"`).
        "MagViewMode" mag_view_mode: String,
        "MagViewPath" mag_view_path: String,
        /// SQL or FOXPRO.
        "DataConnectionType" data_connection_type: String,
        "IsDMZMode" is_dmz_mode: bool,
        "ProxyAppWebAddress" proxy_app_web_address: String,
        "LuminaryOneUrl" luminary_one_url: String,
        "MagViewSqlServerName" mag_view_sql_server_name: String,
        "MagViewSqlDbName" mag_view_sql_db_name: String,
        "MagViewIntegratedSecurity" mag_view_integrated_security: bool,
        "MagViewSqlUserName" mag_view_sql_user_name: String,
        "MagViewSqlUserPwd" mag_view_sql_user_pwd: String,
        "IsLinkedToRadView" is_linked_to_rad_view: bool,
        "RadViewPath" rad_view_path: String,
        "SchedulerApptType" scheduler_appt_type: String,
    }
}

impl Default for CoreMagview {
    fn default() -> Self {
        // The setup wizard's choices before anything is typed (web `configuration-page.tsx`).
        CoreMagview {
            mag_view_mode: MAGVIEW_DESKTOP.into(),
            mag_view_path: String::new(),
            data_connection_type: SQL.into(),
            is_dmz_mode: false,
            proxy_app_web_address: String::new(),
            luminary_one_url: String::new(),
            mag_view_sql_server_name: String::new(),
            mag_view_sql_db_name: String::new(),
            mag_view_integrated_security: false,
            mag_view_sql_user_name: String::new(),
            mag_view_sql_user_pwd: String::new(),
            is_linked_to_rad_view: false,
            rad_view_path: String::new(),
            scheduler_appt_type: String::new(),
        }
    }
}

/// Which test buttons of the MagView form are enabled (spec 03 §5 "Web addresses": disabled
/// while the path, proxy address or LuminaryOne URL is empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MagviewTests {
    pub path: bool,
    pub proxy: bool,
    pub luminary_one: bool,
}

impl CoreMagview {
    pub fn is_luminary_one(&self) -> bool {
        self.mag_view_mode == LUMINARY_ONE
    }

    pub fn is_foxpro(&self) -> bool {
        self.data_connection_type == FOXPRO
    }

    pub fn tests(&self) -> MagviewTests {
        MagviewTests {
            path: !self.mag_view_path.trim().is_empty(),
            proxy: !self.proxy_app_web_address.trim().is_empty(),
            luminary_one: !self.luminary_one_url.trim().is_empty(),
        }
    }
}

impl SettingsGroup for CoreMagview {
    const NAME: &'static str = "CoreMagview";
    const SECRETS: &'static [&'static str] = &["MagViewSqlUserPwd"];
    /// The clinic's path, server and database are the site's to enter (spec 03 §5).
    const DEFAULTS_ARE_COMPLETE: bool = false;

    /// The required fields (spec 03 §5 "In the MagView form") follow the setup wizard
    /// (`crate::setup::validate_setup`): the path in desktop mode, the URL in LuminaryOne mode,
    /// the SQL server, database and (without integrated security) login for a desktop SQL
    /// connection. The password is a secret, answered empty and kept when saved empty, so it is
    /// not required here (the setup wizard checks it against the stored secrets).
    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        one_of(&mut e, "MagViewMode", &self.mag_view_mode, MAGVIEW_MODES);
        one_of(
            &mut e,
            "DataConnectionType",
            &self.data_connection_type,
            DATA_CONNECTION_TYPES,
        );
        let need = |e: &mut ValidationErrors, field: &str, value: &str, message: &str| {
            if value.trim().is_empty() {
                e.add(field, message);
            }
        };
        if self.is_luminary_one() {
            need(
                &mut e,
                "LuminaryOneUrl",
                &self.luminary_one_url,
                LUMINARY_ONE_URL_REQUIRED,
            );
        } else {
            need(
                &mut e,
                "MagViewPath",
                &self.mag_view_path,
                MAGVIEW_PATH_REQUIRED,
            );
            if !self.is_foxpro() {
                need(
                    &mut e,
                    "MagViewSqlServerName",
                    &self.mag_view_sql_server_name,
                    SERVER_NAME_REQUIRED,
                );
                need(
                    &mut e,
                    "MagViewSqlDbName",
                    &self.mag_view_sql_db_name,
                    DB_NAME_REQUIRED,
                );
                if !self.mag_view_integrated_security {
                    need(
                        &mut e,
                        "MagViewSqlUserName",
                        &self.mag_view_sql_user_name,
                        SQL_LOGIN_REQUIRED,
                    );
                    // A kept secret reaches this check as a stand-in (the engine and the form
                    // kit both), so only a password never given is missing.
                    need(
                        &mut e,
                        "MagViewSqlUserPwd",
                        &self.mag_view_sql_user_pwd,
                        SQL_PASSWORD_REQUIRED,
                    );
                }
            }
        }
        need(
            &mut e,
            "SchedulerApptType",
            &self.scheduler_appt_type,
            SCHEDULER_APPT_TYPE_REQUIRED,
        );
        text(&mut e, "MagViewPath", &self.mag_view_path, 1000);
        web_address(&mut e, "ProxyAppWebAddress", &self.proxy_app_web_address);
        web_address(&mut e, "LuminaryOneUrl", &self.luminary_one_url);
        text(
            &mut e,
            "MagViewSqlServerName",
            &self.mag_view_sql_server_name,
            256,
        );
        text(&mut e, "MagViewSqlDbName", &self.mag_view_sql_db_name, 128);
        text(
            &mut e,
            "MagViewSqlUserName",
            &self.mag_view_sql_user_name,
            128,
        );
        text(
            &mut e,
            "MagViewSqlUserPwd",
            &self.mag_view_sql_user_pwd,
            256,
        );
        text(&mut e, "RadViewPath", &self.rad_view_path, 1000);
        text(&mut e, "SchedulerApptType", &self.scheduler_appt_type, 128);
        e
    }

    /// The fields of the other mode and connection type are not shown (spec 03 "Core Settings >
    /// MagView"): LuminaryOne needs its URL alone; MagViewDesktop its path, the data connection
    /// and (SQL) the server settings and DMZ mode; the proxy address only in DMZ mode; login and
    /// password only without integrated security; the RadView path only when linked.
    fn hidden(&self) -> Vec<&'static str> {
        const SQL_FIELDS: [&str; 5] = [
            "MagViewSqlServerName",
            "MagViewSqlDbName",
            "MagViewIntegratedSecurity",
            "MagViewSqlUserName",
            "MagViewSqlUserPwd",
        ];
        let mut hidden = Vec::new();
        if self.is_luminary_one() {
            hidden.extend([
                "MagViewPath",
                "DataConnectionType",
                "IsDMZMode",
                "ProxyAppWebAddress",
                "IsLinkedToRadView",
                "RadViewPath",
            ]);
            hidden.extend(SQL_FIELDS);
            return hidden;
        }
        hidden.push("LuminaryOneUrl");
        if self.is_foxpro() {
            hidden.extend(["IsDMZMode", "ProxyAppWebAddress"]);
            hidden.extend(SQL_FIELDS);
        } else {
            if !self.is_dmz_mode {
                hidden.push("ProxyAppWebAddress");
            }
            if self.mag_view_integrated_security {
                hidden.extend(["MagViewSqlUserName", "MagViewSqlUserPwd"]);
            }
        }
        if !self.is_linked_to_rad_view {
            hidden.push("RadViewPath");
        }
        hidden
    }

    /// Spec 03 §4: choosing FoxPro forces DMZ mode off.
    fn normalize(&mut self) {
        self.is_dmz_mode = setup::dmz_mode_for(&self.data_connection_type, self.is_dmz_mode);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desktop_sql() -> CoreMagview {
        CoreMagview {
            mag_view_path: r"\\server\magview".into(),
            mag_view_sql_server_name: "db1".into(),
            mag_view_sql_db_name: "MagView".into(),
            mag_view_sql_user_name: "portal".into(),
            mag_view_sql_user_pwd: "********".into(),
            scheduler_appt_type: "Screening".into(),
            ..Default::default()
        }
    }

    #[test]
    fn hidden_fields_follow_mode_and_connection() {
        let sql = desktop_sql();
        assert_eq!(
            sql.hidden(),
            ["LuminaryOneUrl", "ProxyAppWebAddress", "RadViewPath"]
        );
        let dmz = CoreMagview {
            is_dmz_mode: true,
            is_linked_to_rad_view: true,
            mag_view_integrated_security: true,
            ..desktop_sql()
        };
        assert_eq!(
            dmz.hidden(),
            ["LuminaryOneUrl", "MagViewSqlUserName", "MagViewSqlUserPwd"]
        );
        let foxpro = CoreMagview {
            data_connection_type: FOXPRO.into(),
            ..desktop_sql()
        };
        assert!(foxpro.hidden().contains(&"IsDMZMode"));
        assert!(foxpro.hidden().contains(&"MagViewSqlServerName"));
        let l1 = CoreMagview {
            mag_view_mode: LUMINARY_ONE.into(),
            ..desktop_sql()
        };
        assert!(!l1.hidden().contains(&"LuminaryOneUrl"));
        assert!(l1.hidden().contains(&"MagViewPath"));
        let e = CoreMagview {
            mag_view_sql_user_pwd: String::new(),
            ..desktop_sql()
        }
        .validate();
        assert_eq!(e.field("MagViewSqlUserPwd"), [SQL_PASSWORD_REQUIRED]);
    }

    #[test]
    fn foxpro_forces_dmz_off() {
        let mut m = CoreMagview {
            data_connection_type: FOXPRO.into(),
            is_dmz_mode: true,
            ..desktop_sql()
        };
        m.normalize();
        assert!(!m.is_dmz_mode);
        let mut sql = CoreMagview {
            is_dmz_mode: true,
            ..desktop_sql()
        };
        sql.normalize();
        assert!(sql.is_dmz_mode);
    }

    #[test]
    fn required_fields_follow_the_mode() {
        assert!(desktop_sql().validate().is_valid());
        let e = CoreMagview {
            mag_view_path: " ".into(),
            mag_view_sql_user_name: String::new(),
            scheduler_appt_type: String::new(),
            ..desktop_sql()
        }
        .validate();
        assert_eq!(e.field("MagViewPath"), [MAGVIEW_PATH_REQUIRED]);
        assert_eq!(e.field("MagViewSqlUserName"), [SQL_LOGIN_REQUIRED]);
        assert_eq!(e.field("SchedulerApptType"), [SCHEDULER_APPT_TYPE_REQUIRED]);
        // Integrated security needs no login; FoxPro needs no SQL server.
        let integrated = CoreMagview {
            mag_view_integrated_security: true,
            mag_view_sql_user_name: String::new(),
            ..desktop_sql()
        };
        assert!(integrated.validate().is_valid());
        let foxpro = CoreMagview {
            data_connection_type: FOXPRO.into(),
            mag_view_sql_server_name: String::new(),
            mag_view_sql_db_name: String::new(),
            ..desktop_sql()
        };
        assert!(foxpro.validate().is_valid());
        // LuminaryOne needs its URL, not the path.
        let e = CoreMagview {
            mag_view_mode: LUMINARY_ONE.into(),
            mag_view_path: String::new(),
            ..desktop_sql()
        }
        .validate();
        assert_eq!(e.field("LuminaryOneUrl"), [LUMINARY_ONE_URL_REQUIRED]);
        assert!(e.field("MagViewPath").is_empty());
        let e = CoreMagview {
            mag_view_mode: "Other".into(),
            luminary_one_url: "ftp://x".into(),
            ..desktop_sql()
        }
        .validate();
        assert_eq!(
            e.field("MagViewMode"),
            ["Choose one of: MagViewDesktop, LuminaryOne"]
        );
        assert_eq!(
            e.field("LuminaryOneUrl"),
            ["Must start with http:// or https://"]
        );
    }

    #[test]
    fn test_buttons_need_a_value() {
        let t = CoreMagview {
            mag_view_path: "p".into(),
            ..Default::default()
        }
        .tests();
        assert_eq!(
            t,
            MagviewTests {
                path: true,
                proxy: false,
                luminary_one: false
            }
        );
    }
}
