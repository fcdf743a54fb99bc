//! One router per area of the spec; `router()` below merges them.

pub mod account;
pub mod appointments;
pub mod audit_logs;
pub mod configuration;
pub mod core_settings;
pub mod documents;
pub mod embed;
pub mod health;
pub mod history_portal;
pub mod home_content;
pub mod iam_here;
pub mod label_transfer;
pub mod labels;
pub mod license;
pub mod logo;
pub mod luminary_one;
pub mod medical_history;
pub mod notice_templates;
pub mod notification_history;
pub mod password;
pub mod printers;
pub mod record_accesses;
pub mod recovery;
pub mod registration;
pub mod release_sync;
pub mod service_management;
pub mod session_timer;
pub mod settings_groups;
pub mod site_usage;
pub mod sso;
pub mod staff_home;
pub mod survey_admin;
pub mod survey_create_patient;
pub mod survey_general;
pub mod survey_integrations;
pub mod survey_link;
pub mod survey_packages;
pub mod survey_queue;
pub mod survey_start;
pub mod survey_themes;
pub mod surveys;
pub mod techpad_pdf_forms;
pub mod techpad_settings;
pub mod users;
pub mod version_info;

use axum::Json;
use serde_json::Value;

use crate::openapi::ApiRouter;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .merge(health::router())
        .merge(account::router())
        .merge(survey_queue::router())
        .merge(history_portal::router())
        .merge(version_info::router())
        .merge(settings_groups::router())
        .merge(notification_history::router())
        .merge(appointments::router())
        .merge(configuration::router())
        .merge(password::router())
        .merge(users::router())
        .merge(session_timer::router())
        .merge(documents::router())
        .merge(medical_history::router())
        .merge(home_content::router())
        .merge(iam_here::router())
        .merge(labels::router())
        .merge(label_transfer::router())
        .merge(license::router())
        .merge(luminary_one::router())
        .merge(embed::router())
        .merge(surveys::router())
        .merge(registration::router())
        .merge(recovery::router())
        .merge(survey_packages::router())
        .merge(survey_admin::router())
        .merge(survey_start::router())
        .merge(survey_create_patient::router())
        .merge(survey_link::router())
        .merge(logo::router())
        .merge(core_settings::router())
        .merge(staff_home::router())
        .merge(sso::router())
        .merge(survey_general::router())
        .merge(survey_themes::router())
        .merge(survey_integrations::router())
        .merge(techpad_settings::router())
        .merge(techpad_pdf_forms::router())
        .merge(notice_templates::router())
        .merge(release_sync::router())
        .merge(site_usage::router())
        .merge(service_management::router())
        .merge(audit_logs::router())
        .merge(record_accesses::router())
        .merge(printers::router())
        .get(
            "/api/openapi.json",
            "This OpenAPI 3.1 document, generated from the router",
            openapi,
        )
}

async fn openapi() -> Json<Value> {
    Json(crate::openapi::document())
}
