//! The named settings groups (spec 03 §3, spec 04 §3), each one typed struct with the spec's
//! field names, its defaults (`Default`) and its rules (`validate`, with the spec's messages;
//! `normalize`, the derived rules applied on save such as toggle machines).
//!
//! The API stores each group as one JSON document with a version (`api/src/store/settings.rs`);
//! the web app validates the same document with the same functions through `validateSettings`
//! (bindings). Every group is listed once, in [`for_each_group!`]: the API's registry, the wasm
//! dispatch and the tests iterate that list.

#[cfg(test)]
mod api_compat;
pub mod checks;
#[cfg(feature = "wasm")]
pub mod js;
pub mod num;
pub mod text;

pub mod core_email_service;
pub mod core_magview;
pub mod core_notifications;
pub mod core_portal;
pub mod core_survey;
pub mod core_timer_service;
pub mod documents_alternate_description;
pub mod documents_column_title;
pub mod documents_essential;
pub mod documents_hiding;
pub mod documents_other;
pub mod documents_printers;
pub mod history_portal;
pub mod license;
pub mod login_page;
pub mod luminary_one;
pub mod other_settings;
pub mod portal_values;
pub mod sso;
pub mod survey_general;
pub mod user_account_password;
pub mod user_account_patient_portal_options;
pub mod user_account_switch_user_options;
pub mod user_account_username_validation;
pub mod user_account_verification;
pub mod user_management;

pub mod survey_actions;
pub mod survey_integrations;
pub mod survey_maglink_integrations;
pub mod survey_powerscribe_integrations;
pub mod survey_themes_settings;
pub mod survey_webhook_integration;
pub mod techpad;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::ValidationErrors;

pub use checks::*;
pub use survey_integrations::{survey_integration_group, SURVEY_INTEGRATION_CATEGORIES};
pub use techpad::{techpad_group, TECHPAD_CATEGORIES};

/// The message of a name that is no settings group.
pub const UNKNOWN_GROUP: &str = "Unknown settings group";

/// A settings group: one document, fetched and saved by [`SettingsGroup::NAME`].
pub trait SettingsGroup:
    Serialize + DeserializeOwned + Default + Clone + PartialEq + Send + Sync + 'static
{
    /// The group's name in the spec and in `/api/configurationForm/{name}`.
    const NAME: &'static str;
    /// Whether the group is edited as a settings form (GET/PUT /api/configurationForm/{name}).
    /// A group with its own routes and per-field editors (PortalValues) says false.
    const FORM: bool = true;
    /// Whether the defaults pass `validate`. False for a group whose required fields are the
    /// site's own (CoreMagview's path, server and database): stored at start-up as they are, they
    /// must be filled in before the group's form saves.
    const DEFAULTS_ARE_COMPLETE: bool = true;
    /// Fields stored encrypted and never sent back to a browser (an empty value on save keeps the
    /// stored one; the audit names the field but not its values).
    const SECRETS: &'static [&'static str] = &[];
    /// Secrets kept in the rows of a list (each webhook's own credential): stored encrypted,
    /// answered empty (the rows that hold one named in StoredSecrets as `List.{i}.Field`), kept
    /// by the row of the same id when a save leaves them empty, removed with their row.
    const ROW_SECRETS: &'static [RowSecret] = &[];
    /// Field -> messages; empty when the document may be stored.
    fn validate(&self) -> ValidationErrors {
        ValidationErrors::new()
    }
    /// Derived rules applied before validation on save (the server) and as the user edits (the
    /// page): toggle machines, fields one choice forces. Idempotent.
    fn normalize(&mut self) {}
    /// Rules that depend on which field the user just changed (the page calls it before
    /// `normalize`, through `applySettingsEdit`): a toggle machine's moved switch.
    fn edited(&mut self, _field: &str) {}
    /// The fields the page does not show for these values (spec 03 §2: the login and password
    /// only for SQL authentication, the MagView fields of the other mode ...). Their values are
    /// kept and saved as they are; `validate` does not require a hidden field.
    fn hidden(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The fields the page shows but does not let the user change for these values (spec 03 §4:
    /// the days fields while Hide forever is ticked; spec 04 §4: a Maglink queue's path and type
    /// while its switch is off, the family tree tab toggle while FamilyTree is off); list rows as
    /// `List.{i}.Field`. Their values are kept and saved as they are, and not checked.
    fn disabled(&self) -> Vec<String> {
        Vec::new()
    }
    /// The only fields a settings-form save may change (`None`: all). The others are facts the
    /// page shows read-only (spec 03 §3 CoreTimerService: "Only the last two are saved").
    const FORM_FIELDS: Option<&'static [&'static str]> = None;
}

/// A secret field of a list's rows (see [`SettingsGroup::ROW_SECRETS`]).
#[derive(Debug, Clone, Copy)]
pub struct RowSecret {
    /// The list field (`WebHooks`).
    pub list: &'static str,
    /// The row's id field, given by the server; a row keeps the stored secret of its id.
    pub id: &'static str,
    /// The secret field of a row.
    pub secret: &'static str,
    /// The row's boolean asking to remove its stored secret on this save.
    pub clear: &'static str,
}

/// Calls `$m!(Type)` ... for every settings group type, in one invocation:
/// `for_each_group!(my_macro)` expands to `my_macro! { core_portal::CorePortal, ... }`.
#[macro_export]
macro_rules! for_each_group {
    ($m:ident) => {
        $m! {
            $crate::settings::core_portal::CorePortal,
            $crate::settings::history_portal::HistoryPortal,
            $crate::settings::survey_general::SurveyGeneral,
            $crate::settings::portal_values::PortalValues,
            $crate::settings::survey_actions::SurveyActions,
            $crate::settings::survey_maglink_integrations::SurveyMaglinkIntegrations,
            $crate::settings::survey_powerscribe_integrations::SurveyPowerscribeIntegrations,
            $crate::settings::survey_webhook_integration::SurveyWebhookIntegration,
            $crate::settings::survey_themes_settings::SurveyThemesSettings,
            $crate::settings::techpad::general::TechpadGeneral,
            $crate::settings::techpad::maglink_events::TechpadMaglinkEvents,
            $crate::settings::techpad::exam_actions::TechpadExamActions,
            $crate::settings::techpad::comments_settings::TechpadCommentsSettings,
            $crate::settings::techpad::diagram_settings::TechpadDiagramSettings,
            $crate::settings::techpad::worklist_sorting::TechpadWorklistSorting,
            $crate::settings::techpad::perform_exam_button_aliases::TechpadDynamicLabelsPerformExamButtonAliases,
            $crate::settings::techpad::exam_tabs_aliases::TechpadDynamicLabelsExamTabsAliases,
            $crate::settings::techpad::status_aliases::TechpadStatusAliases,
            $crate::settings::techpad::tags::TechpadTags,
            $crate::settings::techpad::resources::TechpadResources,
            $crate::settings::techpad::exam_dynamic_labels::TechpadExamDynamicLabels,
            $crate::settings::techpad::canned_notes::TechpadCannedNotes,
            $crate::settings::core_magview::CoreMagview,
            $crate::settings::core_notifications::CoreNotifications,
            $crate::settings::core_email_service::CoreEmailService,
            $crate::settings::core_timer_service::CoreTimerService,
            $crate::settings::login_page::LoginPageSettings,
            $crate::settings::other_settings::OtherSettings,
            $crate::settings::user_account_password::UserAccountPassword,
            $crate::settings::user_account_patient_portal_options::UserAccountPatientPortalOptions,
            $crate::settings::user_account_switch_user_options::UserAccountSwitchUserOptions,
            $crate::settings::user_account_verification::UserAccountUserAccountVerification,
            $crate::settings::user_account_username_validation::UserAccountUsernameValidation,
            $crate::settings::documents_essential::DocumentsEssential,
            $crate::settings::documents_column_title::DocumentsColumnTitle,
            $crate::settings::documents_alternate_description::DocumentsAlternateDocumentTypeDescription,
            $crate::settings::documents_other::DocumentsOther,
            $crate::settings::documents_hiding::DocumentsHidingEmailNotSending,
            $crate::settings::documents_printers::DocumentsPdfPrinters,
            $crate::settings::sso::Sso,
            $crate::settings::license::License,
            $crate::settings::luminary_one::LuminaryOne,
            $crate::settings::user_management::UserManagement,
            $crate::settings::core_survey::CoreSurvey,
        }
    };
}
pub use for_each_group;

macro_rules! names_of {
    ($($t:ty),* $(,)?) => {
        &[$(<$t as SettingsGroup>::NAME),*]
    };
}

/// Every group's name, in declaration order.
pub const GROUP_NAMES: &[&str] = for_each_group!(names_of);

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! defaults_are_valid {
        ($($t:ty),* $(,)?) => {$(
            let mut d = <$t>::default();
            assert_eq!(
                d.validate().is_valid(),
                <$t as SettingsGroup>::DEFAULTS_ARE_COMPLETE,
                "{} defaults: {:?}",
                <$t as SettingsGroup>::NAME,
                d.validate()
            );
            let before = d.clone();
            d.normalize();
            assert!(before == d, "{} defaults change under normalize", <$t as SettingsGroup>::NAME);
            // Every document round-trips, and an empty one reads as the defaults.
            let json = serde_json::to_value(&before).unwrap();
            assert!(serde_json::from_value::<$t>(json).unwrap() == before);
            assert!(serde_json::from_str::<$t>("{}").unwrap() == <$t>::default());
            for secret in <$t as SettingsGroup>::SECRETS {
                assert!(serde_json::to_value(&before).unwrap().get(secret).is_some(), "{secret} is not a field");
            }
            for rs in <$t as SettingsGroup>::ROW_SECRETS {
                let doc = serde_json::to_value(&before).unwrap();
                let row = &doc[rs.list][0];
                for field in [rs.id, rs.secret, rs.clear] {
                    assert!(row.get(field).is_some(), "{}.{field} is not a row field", rs.list);
                }
            }
        )*};
    }

    #[test]
    fn every_group_has_valid_defaults_and_round_trips() {
        for_each_group!(defaults_are_valid);
    }

    #[test]
    fn names_are_unique() {
        let mut names = GROUP_NAMES.to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), GROUP_NAMES.len());
    }
}
