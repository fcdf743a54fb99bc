//! PortalValues: the values the portal reads and writes by key (spec 01 §2.2 home content, §7
//! POST /api/settings/getValues and setvalue; spec 02 §6 logo widths). Not a settings form of
//! its own: each key has its own editors, and the home page's rich text is sanitised by the
//! server before it is stored, so the API edits it only through those key routes.

use super::checks::*;
use super::SettingsGroup;
use crate::logo::validate_logo_width;
use crate::ValidationErrors;

/// What a patient sees on Home until a program manager writes something else.
pub const DEFAULT_HOME_PAGE_CONTENT: &str = "<h3>Welcome to your patient portal</h3><p>Here you can read your letters and results, complete your medical-history survey before your visit, and see your next appointments.</p>";
/// What staff see on their Home (issue 20: their own text, not the patients' welcome).
pub const DEFAULT_STAFF_HOME_PAGE_CONTENT: &str = "<h3>Welcome to the staff portal</h3><p>Your pending work is listed above. The History Portal has every survey assignment, today's appointments and the Ready for Exam notices.</p>";
/// Longest rich text kept (characters).
pub const HOME_PAGE_CONTENT_MAX: usize = 200_000;

crate::settings_struct! {
    pub struct PortalValues {
        /// Rich text (HTML), sanitised by the server.
        "Home_Page_Content" home_page_content: String,
        /// Rich text (HTML) for staff homes, sanitised by the server (issue 20).
        "Staff_Home_Page_Content" staff_home_page_content: String,
        /// The sidebar logo's width in pixels, as text ('50' or '50px').
        "LogoWidth" logo_width: String,
        "SurveyLogoWidth" survey_logo_width: String,
        "SurveyTitle" survey_title: String,
    }
}

impl Default for PortalValues {
    fn default() -> Self {
        PortalValues {
            home_page_content: DEFAULT_HOME_PAGE_CONTENT.into(),
            staff_home_page_content: DEFAULT_STAFF_HOME_PAGE_CONTENT.into(),
            logo_width: "50".into(),
            survey_logo_width: "50".into(),
            survey_title: String::new(),
        }
    }
}

impl SettingsGroup for PortalValues {
    const NAME: &'static str = "PortalValues";
    const FORM: bool = false;

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(
            &mut e,
            "Home_Page_Content",
            &self.home_page_content,
            HOME_PAGE_CONTENT_MAX,
        );
        text(
            &mut e,
            "Staff_Home_Page_Content",
            &self.staff_home_page_content,
            HOME_PAGE_CONTENT_MAX,
        );
        for (field, width) in [
            ("LogoWidth", &self.logo_width),
            ("SurveyLogoWidth", &self.survey_logo_width),
        ] {
            for message in validate_logo_width(width).messages() {
                e.add(field, message);
            }
        }
        text(&mut e, "SurveyTitle", &self.survey_title, 200);
        e
    }
}
