//! The sidebar menu per role and licensed modules (spec 01 §2.1 "Sidebar", §6 "Roles and
//! permissions"). The web app draws exactly this list; the API's route guards are separate.

use crate::model::{MainMenuSettings, ModulePermissions, Permissions, Role};
use crate::wire;

wire! {
    /// One link. `Key` is unique across the whole menu; `Children` are sub-pages of a settings
    /// area (empty for a plain link).
    #[serde(rename_all = "PascalCase")]
    pub struct MenuItem {
        pub key: String,
        pub label: String,
        pub path: String,
        pub children: Vec<MenuItem>,
    }
}

impl MenuItem {
    fn link(key: &str, label: &str, path: &str) -> MenuItem {
        MenuItem {
            key: key.to_owned(),
            label: label.to_owned(),
            path: path.to_owned(),
            children: Vec::new(),
        }
    }

    /// A settings area whose children live at `<path>/<slug>`; keys are `<key>/<slug>`.
    fn area(key: &str, label: &str, path: &str, children: &[&str]) -> MenuItem {
        let mut item = MenuItem::link(key, label, path);
        item.children = children
            .iter()
            .map(|slug| {
                let child_key = format!("{key}/{slug}");
                MenuItem::link(
                    &child_key,
                    &area_child_label(&child_key).unwrap_or_else(|| child_label(slug)),
                    &format!("{path}/{slug}"),
                )
            })
            .collect();
        item
    }
}

/// A child whose label the spec names within its area (spec 03 §2: "general (title Core
/// Settings)"; the survey and techpad areas' own "general" pages stay General).
fn area_child_label(key: &str) -> Option<String> {
    (key == "core-settings/general").then(|| "Core Settings".to_owned())
}

/// A child's label: the one the spec names (spec 01 §2.1: email-service is shown as
/// Notification Templates), else the slug in Title Case (small joining words lower case, initialisms upper case).
/// The patient menu's entries (translated through labels::PATIENT_MESSAGES; the pages' titles
/// say the same).
pub const HOME: &str = "Home";
pub const DOCUMENTS: &str = "Documents";
pub const APPOINTMENTS: &str = "Appointments";
pub const MEDICAL_HISTORY: &str = "Medical History";
/// The user menu's link to the account settings (change password) page.
pub const ACCOUNT_SETTINGS: &str = "Account settings";

pub fn child_label(slug: &str) -> String {
    if slug == "email-service" {
        return "Notification Templates".to_owned();
    }
    let words = slug
        .split('-')
        .filter(|w| !w.is_empty())
        .map(|word| match word {
            "sso" | "pdf" => word.to_ascii_uppercase(),
            "and" | "of" => word.to_owned(),
            _ => {
                let mut chars = word.chars();
                chars
                    .next()
                    // The slugs are the menu's own ASCII names (test below): ASCII upper case
                    // is theirs, without Unicode's case tables in the wasm file (issue 22).
                    .map(|c| {
                        let mut word = String::from(c.to_ascii_uppercase());
                        word.push_str(chars.as_str());
                        word
                    })
                    .unwrap_or_default()
            }
        });
    crate::join(words, " ")
}

/// The menu of the signed-in user; empty for anyone not signed in or without a role.
pub fn menu_for(perms: &Permissions, modules: &ModulePermissions) -> Vec<MenuItem> {
    let Some(role) = perms.role().filter(|_| perms.is_user_logged_in) else {
        return Vec::new();
    };
    let mut menu = Vec::new();
    // SSO mode hides Home (spec 01 §2.1, §6).
    if !perms.is_sso_mode {
        menu.push(MenuItem::link("home", HOME, "/home"));
    }
    let history_portal =
        || MenuItem::link("history-portal", "History Portal", "/admin/history-portal");
    let notification_history = || {
        MenuItem::link(
            "notification-history",
            "Notification history",
            "/admin/notification-history",
        )
    };
    match role {
        // Each patient page depends on its licensed module (spec 01 §6).
        Role::Patient => {
            if modules.module_documents {
                menu.push(MenuItem::link("documents", DOCUMENTS, "/documents"));
            }
            if modules.module_appointments {
                menu.push(MenuItem::link(
                    "appointments",
                    APPOINTMENTS,
                    "/appointments",
                ));
            }
            if modules.module_medical_history {
                menu.push(MenuItem::link(
                    "medical-history",
                    MEDICAL_HISTORY,
                    "/medical-history",
                ));
            }
        }
        Role::FrontDesk => menu.push(history_portal()),
        // The techpad app reads its configuration through the API; the portal menu has Home.
        Role::Technologist => {}
        Role::ClientAdmin => {
            menu.push(MenuItem::link("users", "Users", "/admin/user/view-users"));
            menu.push(history_portal());
            menu.push(notification_history());
            // spec 03 §6: 'Show Reports for ClientAdmin users' governs the reports toggle.
            if perms.show_front_desk_reports {
                menu.push(MenuItem::link(
                    "site-usage-report",
                    "Site Usage Report",
                    "/admin/site-usage-report",
                ));
            }
        }
        Role::ProgramManager => {
            menu.push(MenuItem::link("users", "Users", "/admin/user/manage-users"));
            menu.push(history_portal());
            menu.push(notification_history());
            menu.push(MenuItem::link(
                "site-usage-report",
                "Site Usage Report",
                "/admin/site-usage-report",
            ));
            menu.push(MenuItem::link(
                "audit-logs",
                "Audit Logs",
                "/admin/audit-logs",
            ));
            menu.push(MenuItem::area(
                "core-settings",
                "Portal Core",
                "/admin/core-settings",
                &[
                    "general",
                    "user-account",
                    "dynamic-labels",
                    "login-page",
                    "licenses",
                    "sso",
                    "other",
                ],
            ));
            menu.push(MenuItem::area(
                "patient-result-portal-settings",
                "Patient Result Portal",
                "/admin/patient-result-portal-settings",
                &["email-service", "documents"],
            ));
            menu.push(MenuItem::link(
                "history-portal-settings",
                "History Portal Settings",
                "/admin/history-portal-settings",
            ));
            menu.push(MenuItem::area(
                "survey-settings",
                "Survey Settings",
                "/admin/survey-settings",
                &["general", "package", "integrations", "themes"],
            ));
            menu.push(MenuItem::area(
                "techpad-settings",
                "Techpad Settings",
                "/admin/techpad-settings",
                &[
                    "general",
                    "maglink-events",
                    "exam-actions",
                    "comments-settings",
                    "diagram-settings",
                    "worklist-sorting",
                    "dynamic-labels",
                    "status-and-tags",
                    "resources",
                    "pdf-forms",
                    "canned-notes",
                ],
            ));
            menu.push(MenuItem::link(
                "luminary-one-settings",
                "Luminary One Settings",
                "/admin/luminary-one-settings",
            ));
        }
    }
    menu
}

/// The header's user menu (spec 01 §2.1 "a user menu (account settings link ...)"): the
/// account settings link unless UserAccountPassword DisableChangePasswordMenu is on, and the email
/// reset link (OtherSettings IsAllowedToShowEmailResetLink, its text EmailResetLink) to the
/// forgot-password page of the user's kind, which emails a reset link.
pub fn user_menu(perms: &Permissions, settings: &MainMenuSettings) -> Vec<MenuItem> {
    let mut items = Vec::new();
    if !perms.is_user_logged_in {
        return items;
    }
    if !settings.disable_change_password_menu {
        items.push(MenuItem::link(
            "account-settings",
            ACCOUNT_SETTINGS,
            "/account/change-password",
        ));
    }
    let text = settings.email_reset_link.trim();
    if settings.is_allowed_to_show_email_reset_link && !text.is_empty() {
        let door = if perms.is_patient { "patient" } else { "staff" };
        items.push(MenuItem::link(
            "email-reset-link",
            text,
            &format!("/{door}/forgot-password"),
        ));
    }
    items
}

/// A licensed module (spec 03 "License": Module_Documents, Module_Appointments,
/// Module_MedicalHistory, Module_TabletSurvey).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Module {
    Documents,
    Appointments,
    MedicalHistory,
    TabletSurvey,
}

impl Module {
    pub fn enabled(self, modules: &ModulePermissions) -> bool {
        match self {
            Module::Documents => modules.module_documents,
            Module::Appointments => modules.module_appointments,
            Module::MedicalHistory => modules.module_medical_history,
            Module::TabletSurvey => modules.module_tablet_survey,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Module::Documents => "Documents",
            Module::Appointments => "Appointments",
            Module::MedicalHistory => "Medical History",
            Module::TabletSurvey => "Tablet Survey",
        }
    }
}

/// Whether `path` is `prefix` or below it (ASCII case-insensitive, whole segments).
fn under(path: &str, prefix: &str) -> bool {
    path.len() >= prefix.len()
        && path.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
        && matches!(
            path.as_bytes().get(prefix.len()),
            None | Some(b'/') | Some(b'?')
        )
}

/// The module a web route or an API path belongs to (spec 01 §6): the same table guards the
/// browser's routes and the API's endpoints, so a disabled module is gone from both.
pub fn module_of(path: &str) -> Option<Module> {
    const TABLE: &[(&str, Module)] = &[
        ("/documents", Module::Documents),
        ("/Scripts/pdfjs", Module::Documents),
        ("/api/documents", Module::Documents),
        ("/appointments", Module::Appointments),
        (
            "/api/surveyApi/GetNextAppointmentsForUser",
            Module::Appointments,
        ),
        (
            "/api/surveyApi/GetAppointmentsForUser",
            Module::Appointments,
        ),
        ("/medical-history", Module::MedicalHistory),
        ("/medicalHistory", Module::MedicalHistory),
        (
            "/api/surveyApi/GetAvailableSurveysForUser",
            Module::MedicalHistory,
        ),
        (
            "/api/surveyApi/GetCompletedSurveysForUser",
            Module::MedicalHistory,
        ),
        (
            "/api/surveyApi/IsCurrentPatientHasIncompletedSurvey",
            Module::MedicalHistory,
        ),
        // The survey kiosk (spec 01 §2.5): PIN start, the admin PIN and the staff start's search,
        // respondents, start options and new patients or studies, and the PIN staff generate
        // for it. Emailed links and History Portal starts are not the tablet's.
        ("/api/surveyIdentity/checkPin", Module::TabletSurvey),
        ("/api/surveyIdentity/CheckAdminPin", Module::TabletSurvey),
        ("/api/v2/survey/generatePin", Module::TabletSurvey),
        ("/api/v2/survey/searchRespondents", Module::TabletSurvey),
        (
            "/api/v2/survey/loadRespondentEntities",
            Module::TabletSurvey,
        ),
        ("/api/v2/survey/startOptions", Module::TabletSurvey),
        ("/magview.api/patient/add", Module::TabletSurvey),
        ("/magview.api/studies/create", Module::TabletSurvey),
    ];
    TABLE
        .iter()
        .find(|(prefix, _)| under(path, prefix))
        .map(|(_, m)| *m)
}

/// Where a shell route sends this user instead (spec 01 §2.1, §6), `None` to stay: a disabled
/// module's routes go home; in SSO mode Home is hidden and the guarded routes go to /documents
/// (or, without the Documents module, to the account page, which every user has).
pub fn route_redirect(
    perms: &Permissions,
    modules: &ModulePermissions,
    path: &str,
) -> Option<String> {
    let fallback = if !perms.is_sso_mode {
        "/home"
    } else if modules.module_documents {
        "/documents"
    } else {
        "/account/change-password"
    };
    let is_home = path == "/" || under(path, "/home");
    let blocked =
        (perms.is_sso_mode && is_home) || module_of(path).is_some_and(|m| !m.enabled(modules));
    (blocked && !under(path, fallback)).then(|| fallback.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_admin_reports_follow_show_front_desk_reports() {
        let mut perms = Permissions::for_role(Role::ClientAdmin);
        let all = ModulePermissions::default();
        assert!(!paths(&menu_for(&perms, &all)).contains(&"/admin/site-usage-report"));
        perms.show_front_desk_reports = true;
        assert!(paths(&menu_for(&perms, &all)).contains(&"/admin/site-usage-report"));
    }

    #[test]
    fn user_menu_follows_the_password_and_other_settings() {
        let perms = Permissions::for_role(Role::Patient);
        let mut settings = MainMenuSettings::default();
        assert_eq!(
            paths(&user_menu(&perms, &settings)),
            ["/account/change-password"]
        );
        settings.disable_change_password_menu = true;
        assert!(user_menu(&perms, &settings).is_empty());
        settings.is_allowed_to_show_email_reset_link = true;
        settings.email_reset_link = "Email me a reset link".into();
        let menu = user_menu(&perms, &settings);
        assert_eq!(paths(&menu), ["/patient/forgot-password"]);
        assert_eq!(menu[0].label, "Email me a reset link");
        let staff = Permissions::for_role(Role::ClientAdmin);
        assert_eq!(
            paths(&user_menu(&staff, &settings)),
            ["/staff/forgot-password"]
        );
        assert!(user_menu(&Permissions::default(), &settings).is_empty());
    }

    fn paths(menu: &[MenuItem]) -> Vec<&str> {
        menu.iter().map(|m| m.path.as_str()).collect()
    }

    #[test]
    fn patient_menu_follows_modules_and_sso() {
        let mut perms = Permissions::for_role(Role::Patient);
        let all = ModulePermissions::default();
        assert_eq!(
            paths(&menu_for(&perms, &all)),
            ["/home", "/documents", "/appointments", "/medical-history"]
        );
        perms.is_sso_mode = true;
        let some = ModulePermissions {
            module_documents: false,
            ..all
        };
        assert_eq!(
            paths(&menu_for(&perms, &some)),
            ["/appointments", "/medical-history"]
        );
    }

    #[test]
    fn staff_menus_per_role() {
        let modules = ModulePermissions::default();
        let front = menu_for(&Permissions::for_role(Role::FrontDesk), &modules);
        assert_eq!(paths(&front), ["/home", "/admin/history-portal"]);
        let admin = menu_for(&Permissions::for_role(Role::ClientAdmin), &modules);
        assert_eq!(
            paths(&admin),
            [
                "/home",
                "/admin/user/view-users",
                "/admin/history-portal",
                "/admin/notification-history"
            ]
        );
        let manager = menu_for(&Permissions::for_role(Role::ProgramManager), &modules);
        assert_eq!(manager.len(), 12);
        assert_eq!(manager[1].path, "/admin/user/manage-users");
        let core = &manager[6];
        assert_eq!(core.children.len(), 7);
        assert_eq!(core.children[5].label, "SSO");
        assert_eq!(core.children[1].path, "/admin/core-settings/user-account");
        assert_eq!(manager[7].children[0].label, "Notification Templates");
        // spec 01 §2.1's order: ... resources, pdf-forms, canned-notes.
        assert_eq!(manager[10].children[9].label, "PDF Forms");
        assert_eq!(manager[10].children[10].label, "Canned Notes");
        // Keys are unique across the whole menu.
        let mut keys: Vec<&str> = manager
            .iter()
            .flat_map(|m| m.children.iter().chain([m]))
            .map(|m| m.key.as_str())
            .collect();
        let count = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), count);
    }

    #[test]
    fn nobody_signed_in_has_no_menu() {
        assert!(menu_for(&Permissions::default(), &ModulePermissions::default()).is_empty());
        let mut perms = Permissions::for_role(Role::ProgramManager);
        perms.is_user_logged_in = false;
        assert!(menu_for(&perms, &ModulePermissions::default()).is_empty());
    }

    #[test]
    fn disabled_modules_and_sso_redirect() {
        let perms = Permissions::for_role(Role::Patient);
        let all = ModulePermissions::default();
        assert_eq!(route_redirect(&perms, &all, "/documents/unread"), None);
        let none = ModulePermissions {
            module_documents: false,
            module_appointments: false,
            module_medical_history: false,
            module_tablet_survey: false,
        };
        assert_eq!(
            route_redirect(&perms, &none, "/documents/all").as_deref(),
            Some("/home")
        );
        assert_eq!(
            route_redirect(&perms, &none, "/Documents/ViewPdf/abc").as_deref(),
            Some("/home")
        );
        assert_eq!(route_redirect(&perms, &none, "/documentsx"), None);
        assert_eq!(route_redirect(&perms, &none, "/home"), None);
        let mut sso = perms.clone();
        sso.is_sso_mode = true;
        assert_eq!(
            route_redirect(&sso, &all, "/home").as_deref(),
            Some("/documents")
        );
        assert_eq!(route_redirect(&sso, &all, "/documents/all"), None);
        assert_eq!(
            route_redirect(&sso, &none, "/home").as_deref(),
            Some("/account/change-password")
        );
        assert_eq!(
            module_of("/api/documents/loadDocuments"),
            Some(Module::Documents)
        );
        assert_eq!(
            module_of("/api/surveyApi/GetNextAppointmentsForUser"),
            Some(Module::Appointments)
        );
        assert_eq!(module_of("/api/settings/getValues"), None);
    }

    #[test]
    fn every_menu_slug_is_ascii() {
        // child_label upper-cases a slug's first letter the ASCII way.
        let all = ModulePermissions::default();
        for role in Role::ALL {
            let mut perms = Permissions::for_role(role);
            perms.show_front_desk_reports = true;
            for item in menu_for(&perms, &all) {
                for child in &item.children {
                    assert!(child.path.is_ascii(), "{}", child.path);
                }
            }
        }
    }

    #[test]
    fn child_labels_are_title_case() {
        assert_eq!(child_label("status-and-tags"), "Status and Tags");
        assert_eq!(child_label("maglink-events"), "Maglink Events");
    }
}
