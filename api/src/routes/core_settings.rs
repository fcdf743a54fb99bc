//! Core Settings (spec 03 §2 "Core Settings > Portal / MagView / Notifications / Timer Service",
//! §7 "Connection tests"). The groups themselves are read and saved through
//! /api/configurationForm/{name} (settings_groups.rs); here are the pages' tests, each answering
//! a real result: a PostgreSQL connection opens (the spec's "SQL Server" is the PostgreSQL server
//! of the portal or clinical database here), a folder exists and is readable, an address answers.
//! The tests themselves are `crate::connection_test`, shared with the setup wizard.
//!
//! Client admins and program managers (spec 03 §6: settings pages), except the public web
//! address test, which the admin's browser calls on the address being tested and which only
//! says that this portal answers there.

use axum::extract::State;
use axum::Json;
use wasm_core::model::{
    ConnectionTest, ConnectionTestResult, DbPathTest, FolderPathTest, RadViewPathResult,
    TestMessage, TestMessageResult, WebAddressQuery,
};
use wasm_core::settings::core_magview::CoreMagview;
use wasm_core::settings::core_notifications;
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::core_timer_service::CoreTimerService;

use crate::answers::AnyOrigin;
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::connection_test as ct;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::outbox::{self, OutboundMessage};
use crate::{settings, AppState};

type Admin = RequireRole<SettingsAdmins>;

/// The Email Logs type of the Notifications page's test messages.
pub const TEST_MESSAGE_KIND: &str = "TestMessage";
pub const TEST_EMAIL_SUBJECT: &str = "Portal test email";
pub const TEST_EMAIL_TEXT: &str =
    "This is a test email from the portal's Core Settings > Notifications page.";
pub const TEST_SMS_TEXT: &str = "Portal test SMS from Core Settings > Notifications.";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/configuration/TestConnection",
            "Portal database test (spec 03 §4): opens a PostgreSQL connection to SqlServerName (host[:port]) / SqlDbName; success, a warning (isDataBaseExist false: the server answers, the database will be created) or 'Test Connection Failed' with the server's error. An empty SqlUserPwd uses the stored CorePortal password. 5 s at most",
            test_portal_connection,
        )
        .get(
            "/api/configuration/TestPublicWebAddress",
            "Answers true: the browser calls it on {PublicWebAddress}api/configuration/TestPublicWebAddress to see that this portal answers at that address (any origin may read it)",
            test_public_web_address,
        )
        .get(
            "/api/configuration/TestProxyAppWebAddress",
            "GET request (5 s) to ?address (trailing slash added): true when it answers 2xx/3xx, false otherwise",
            web_address,
        )
        .get(
            "/api/connectionTest/testProxyAppWebAddress",
            "As /api/configuration/TestProxyAppWebAddress: true when the DMZ proxy address answers; an error yields false",
            web_address,
        )
        .get(
            "/api/connectionTest/testLuminaryOneWebAddress",
            "GET request (5 s) to the LuminaryOne ?address (trailing slash added): true when it answers; an error yields false",
            web_address,
        )
        .post(
            "/api/connectionTest/testSqlConnection",
            "MagView SQL test: opens a PostgreSQL connection (SqlServerName, SqlDbName, IntegratedSecurity, SqlUserName, SqlUserPwd); answers success, isDataBaseExist and error. An empty SqlUserPwd uses the stored CoreMagview password. 5 s at most",
            test_sql_connection,
        )
        .post(
            "/api/connectionTest/testFoxproConnection",
            "FoxPro test: DbPath is a folder this server can read (paths with '..' refused); success and error",
            test_foxpro,
        )
        .post(
            "/api/connectionTest/testMagviewFolder",
            "MagView path test: FolderPath is a folder this server can read (paths with '..' refused); success and error",
            test_magview_folder,
        )
        .post(
            "/api/connectionTest/detectRadViewPath",
            "Finds the RadView path from RadView.ini (key RadViewPath) beside the MagView path DbPath; radViewPath, or success false with the reason",
            detect_radview_path,
        )
        .post(
            "/api/coreSettings/sendTestEmail",
            "Sends a test email to To through the outbox with the saved CoreNotifications SMTP settings, one attempt; answers the SMTP server's reply or its error (400 with field messages for a bad address)",
            send_test_email,
        )
        .post(
            "/api/coreSettings/sendTestSms",
            "Sends a test SMS to To through the outbox with the saved CoreNotifications SMS provider settings, one attempt; answers the provider's status and body or its error",
            send_test_sms,
        )
        .get(
            "/api/coreSettings/timerServiceStatus",
            "The timer service as this portal runs it (the notifications engine inside the API, service TimerService): TimerServiceStatus STARTED, RESTARTED or STOPPED ('' when no instance may run it), and the database it uses (TimerServiceDBName, TimerServiceServer, TimerServiceIntegratedSecurity, TimerServiceSQLLogin; never the password), with the saved Append Only Mode and Notifications API Url",
            timer_service_status,
        )
}

async fn test_portal_connection(
    State(state): State<AppState>,
    _user: Admin,
    ApiJson(mut test): ApiJson<ConnectionTest>,
) -> AppResult<Json<ConnectionTestResult>> {
    if !test.integrated_security && test.sql_user_pwd.is_empty() {
        let portal = settings::get::<CorePortal>(&state.db).await?;
        test.sql_user_pwd = crate::secrets::reveal(&portal.portal_sql_user_pwd);
    }
    Ok(Json(ct::portal_db_test(&test).await))
}

async fn test_public_web_address() -> AnyOrigin<bool> {
    AnyOrigin(true)
}

async fn web_address(_user: Admin, ApiQuery(q): ApiQuery<WebAddressQuery>) -> Json<bool> {
    Json(ct::web_address_test(&q.address).await.success)
}

async fn test_sql_connection(
    State(state): State<AppState>,
    _user: Admin,
    ApiJson(mut test): ApiJson<ConnectionTest>,
) -> AppResult<Json<ConnectionTestResult>> {
    if !test.integrated_security && test.sql_user_pwd.is_empty() {
        let magview = settings::get::<CoreMagview>(&state.db).await?;
        test.sql_user_pwd = crate::secrets::reveal(&magview.mag_view_sql_user_pwd);
    }
    Ok(Json(ct::portal_db_test(&test).await))
}

async fn test_foxpro(
    _user: Admin,
    ApiJson(body): ApiJson<DbPathTest>,
) -> Json<ConnectionTestResult> {
    Json(ct::folder_test(&body.db_path).await)
}

async fn test_magview_folder(
    _user: Admin,
    ApiJson(body): ApiJson<FolderPathTest>,
) -> Json<ConnectionTestResult> {
    Json(ct::folder_test(&body.folder_path).await)
}

async fn detect_radview_path(
    _user: Admin,
    ApiJson(body): ApiJson<DbPathTest>,
) -> Json<RadViewPathResult> {
    Json(match ct::detect_radview_path(&body.db_path).await {
        Ok(path) => RadViewPathResult {
            success: true,
            rad_view_path: Some(path),
            error: None,
        },
        Err(error) => RadViewPathResult {
            success: false,
            rad_view_path: None,
            error: Some(error),
        },
    })
}

fn message_result(sent: Result<String, String>) -> TestMessageResult {
    match sent {
        Ok(answer) => TestMessageResult {
            success: true,
            message: answer,
            error: None,
        },
        Err(error) => TestMessageResult {
            success: false,
            message: ct::CONNECTION_FAILED.to_owned(),
            error: Some(error),
        },
    }
}

async fn send_test_email(
    State(state): State<AppState>,
    _user: Admin,
    ApiJson(body): ApiJson<TestMessage>,
) -> AppResult<Json<TestMessageResult>> {
    let errors = core_notifications::validate_test_email(&body.to);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let message = OutboundMessage::email(
        body.to.trim(),
        TEST_EMAIL_SUBJECT,
        TEST_EMAIL_TEXT,
        TEST_MESSAGE_KIND,
    );
    Ok(Json(message_result(
        outbox::send_now(&state.db, message).await?,
    )))
}

async fn send_test_sms(
    State(state): State<AppState>,
    _user: Admin,
    ApiJson(body): ApiJson<TestMessage>,
) -> AppResult<Json<TestMessageResult>> {
    let errors = core_notifications::validate_test_sms(&body.to);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let message = OutboundMessage::sms(body.to.trim(), TEST_SMS_TEXT, TEST_MESSAGE_KIND);
    Ok(Json(message_result(
        outbox::send_now(&state.db, message).await?,
    )))
}

async fn timer_service_status(
    State(state): State<AppState>,
    _user: Admin,
) -> AppResult<Json<CoreTimerService>> {
    let saved = settings::get::<CoreTimerService>(&state.db).await?;
    let facts = state.db.connection_facts();
    // The notifications engine (reminders, 'I am Here' and ready-for-exam notices) is what the
    // spec's timer service does: the TimerService of services/, on the portal's own database;
    // '' (not installed) when no API instance was started with --notifications-engine.
    Ok(Json(CoreTimerService {
        timer_service_status: crate::services::actions::status(&state.db, "TimerService").await?,
        timer_service_db_name: facts.database,
        timer_service_server: facts.server,
        timer_service_integrated_security: facts.integrated_security,
        timer_service_sql_login: facts.login,
        timer_service_sql_pass: String::new(),
        ..saved
    }))
}
