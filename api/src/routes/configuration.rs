//! The first-run setup wizard's calls (spec 02 §2.11, §4, §5, §7.5). The spec shows only
//! saveConfiguration's path; the others are this portal's choice and documented here.
//!
//! Access: while the portal is not configured there are no accounts to sign in with, so anyone
//! may load, test and save (the web app sends every route to /init until then). Once saved, the
//! portal is configured and the same calls need a ProgramManager (401 signed out, 403 for any
//! other role).
//!
//! Storage: the one configuration object is spread over the settings groups it covers
//! (`group_of`): CorePortal, CoreMagview, CoreNotifications (NOTIFICATION_ prefix dropped),
//! CoreEmailService (EMAIL_SERVICE_ prefix dropped, plus the email-service behaviour fields),
//! UserAccountPassword (ResetPasswordRedirectUrl) and CoreSurvey (the survey fields). Secret
//! fields are stored encrypted (secrets.rs), answered empty with their names in StoredSecrets,
//! and kept when saved empty.

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use serde_json::{json, Map, Value};
use sqlx::{ConnectOptions, Connection};
use wasm_core::model::{
    ConnectionTest, ConnectionTestResult, FirstManager, FolderTestRequest, LogUrlChangeRequest,
    RadViewDetectRequest, RadViewDetectResult, SaveConfigurationRequest, SaveConfigurationResult,
    SetupConfiguration, UrlChangeLogged, WebAddressTestRequest,
};
use wasm_core::settings::core_email_service::CoreEmailService;
use wasm_core::settings::core_magview::CoreMagview;
use wasm_core::settings::core_notifications::CoreNotifications;
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::core_survey::CoreSurvey;
use wasm_core::settings::user_account_password::UserAccountPassword;
use wasm_core::settings::SettingsGroup;
use wasm_core::setup::{self, SECRET_FIELDS};
use wasm_core::ValidationErrors;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::ProgramManagers;
use crate::auth::{password as hashing, MaybeUser, SetupOr};
use crate::client_addr::ClientAddr;
use crate::connection_test::{self as ct, failed, ok, probe, DbProbe, CONNECTION_OK, TEST_TIMEOUT};
use crate::db::now_ms;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::password_rules::password_requirements;
use crate::settings::engine::{self, Who, Write};
use crate::{settings, store, AppState};

pub const SAVE_FAILED: &str = "Error while saving configuration";
pub const CORE_MAGVIEW: &str = "CoreMagview";
pub const CORE_NOTIFICATIONS: &str = "CoreNotifications";
pub const CORE_EMAIL_SERVICE: &str = "CoreEmailService";
pub const CORE_SURVEY: &str = "CoreSurvey";

/// Site-usage event type of a page change (spec 03 §3 UrlHit).
pub const EVENT_URL_HIT: i64 = crate::site_usage::URL_HIT;
pub const NOT_CONFIGURED: &str = "The portal is not configured";
/// Longest page address kept.
const MAX_URL: usize = 2048;

/// Anyone before the first save; a ProgramManager afterwards.
type Setup = SetupOr<ProgramManagers>;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/configuration/loadConfiguration",
            "The setup configuration; secrets answered empty, their names in StoredSecrets",
            load_configuration,
        )
        .post(
            "/api/configuration/saveConfiguration",
            "Validates (wasm-core validateSetup), normalises, writes the settings groups, creates a missing portal database, marks the portal configured. While unconfigured (and no Program manager exists) FirstManager {Username, Email, FirstName, LastName, Password, PasswordRepeat} is required and created as a Program manager in the same transaction; refused afterwards",
            save_configuration,
        )
        .post(
            "/api/configuration/testPortalDbConnection",
            "Opens a PostgreSQL connection to the portal database; isDataBaseExist false (a warning) when the server answers but the database is missing",
            test_portal_db,
        )
        .post(
            "/api/configuration/testMagViewDbConnection",
            "SQL: opens a PostgreSQL connection to the clinical database (a missing database fails); FOXPRO: checks the DbPath folder",
            test_magview_db,
        )
        .post(
            "/api/configuration/testFolder",
            "Checks that Path is a readable folder on the server",
            test_folder,
        )
        .post(
            "/api/configuration/testWebAddress",
            "GET request (5 s timeout) to Url with a trailing slash; only that address is called",
            test_web_address,
        )
        .post(
            "/api/configuration/detectRadViewPath",
            "Finds the RadView path from the RadView settings file (RadView.ini, key RadViewPath, relative paths from the file's folder) beside the MagView database path DbPath (a folder, or a file in it); success false with the reason when the file, the key or the folder is missing",
            detect_radview_path,
        )
        .post(
            "/api/Event/LogUrlChange",
            "Records a page change (Url, a path of this portal) as a UrlHit site-usage event, with the signed-in user if any; refused (400) while the portal is not configured",
            log_url_change,
        )
}

async fn detect_radview_path(
    State(_state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(body): ApiJson<RadViewDetectRequest>,
) -> AppResult<Json<RadViewDetectResult>> {
    Ok(Json(match ct::detect_radview_path(&body.db_path).await {
        Ok(path) => RadViewDetectResult {
            success: true,
            rad_view_path: Some(path),
            error: None,
        },
        Err(error) => RadViewDetectResult {
            success: false,
            rad_view_path: None,
            error: Some(error),
        },
    }))
}

async fn log_url_change(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    peer: ClientAddr,
    headers: axum::http::HeaderMap,
    ApiJson(body): ApiJson<LogUrlChangeRequest>,
) -> AppResult<Json<UrlChangeLogged>> {
    if !is_configured(&state).await? {
        return Err(AppError::BadRequest(NOT_CONFIGURED.to_owned()));
    }
    let url = body.url.trim();
    if !url.starts_with('/')
        || url.starts_with("//")
        || url.len() > MAX_URL
        || url.chars().any(char::is_control)
    {
        return Err(AppError::BadRequest(
            "Url must be a path of this portal (starting with /)".to_owned(),
        ));
    }
    let (user_id, patient_id) = match &user {
        Some(u) => (Some(u.user_id), u.patient_id),
        None => (None, None),
    };
    crate::site_usage::record(
        &state.db,
        crate::site_usage::Event {
            event_type: EVENT_URL_HIT,
            user_id,
            patient_id,
            target_id: "",
            url,
        },
        &peer,
        &headers,
    )
    .await?;
    Ok(Json(UrlChangeLogged { logged: true }))
}

pub async fn is_configured(state: &AppState) -> AppResult<bool> {
    store::setup::is_configured(&state.db).await
}

/// Which settings group a configuration field is stored in, and under which key (wasm-core's
/// rule; the wizard checks the same groups with it before it saves).
pub use wasm_core::setup::group_of;

/// The groups the wizard writes (in this order), the ones `load_groups` reads.
use wasm_core::setup::GROUPS;

fn same_kind(a: &Value, b: &Value) -> bool {
    matches!(
        (a, b),
        (Value::String(_), Value::String(_))
            | (Value::Bool(_), Value::Bool(_))
            | (Value::Number(_), Value::Number(_))
            | (Value::Array(_), Value::Array(_))
    )
}

/// The wizard's groups, each read typed (completed with its defaults) and given back as its JSON
/// document, keyed by group name: the form `group_of` maps the wizard's fields into.
async fn load_groups(state: &AppState) -> AppResult<Map<String, Value>> {
    let db = &state.db;
    Ok(Map::from_iter([
        document(settings::get::<CorePortal>(db).await?)?,
        document(settings::get::<CoreMagview>(db).await?)?,
        document(settings::get::<CoreNotifications>(db).await?)?,
        document(settings::get::<CoreEmailService>(db).await?)?,
        document(settings::get::<UserAccountPassword>(db).await?)?,
        document(settings::get::<CoreSurvey>(db).await?)?,
    ]))
}

/// A typed group as (its name, its document).
fn document<T: SettingsGroup + Serialize>(group: T) -> AppResult<(String, Value)> {
    let doc = serde_json::to_value(group).map_err(AppError::internal)?;
    Ok((T::NAME.to_owned(), doc))
}

/// The stored configuration, with secrets still encrypted (server-side use only).
fn stored_configuration(docs: &Map<String, Value>) -> Map<String, Value> {
    let template = serde_json::to_value(SetupConfiguration::default()).expect("serialisable");
    let mut out = Map::new();
    for (field, default) in template.as_object().expect("object") {
        let stored = group_of(field)
            .and_then(|(group, key)| docs.get(group).and_then(|d| d.get(&key)).cloned());
        match stored {
            Some(v) if same_kind(&v, default) => out.insert(field.clone(), v),
            _ => out.insert(field.clone(), default.clone()),
        };
    }
    out
}

/// What the browser gets: secrets blank, the names of the stored ones listed.
fn for_browser(stored: &Map<String, Value>) -> SetupConfiguration {
    let mut out = stored.clone();
    let mut held = Vec::new();
    for field in SECRET_FIELDS {
        if out
            .get(field)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
        {
            held.push(Value::String(field.to_owned()));
        }
        out.insert(field.to_owned(), Value::String(String::new()));
    }
    out.insert("StoredSecrets".to_owned(), Value::Array(held));
    serde_json::from_value(Value::Object(out)).unwrap_or_default()
}

async fn load_configuration(
    State(state): State<AppState>,
    SetupOr(_user, _): Setup,
) -> AppResult<Json<SetupConfiguration>> {
    let docs = load_groups(&state).await?;
    Ok(Json(for_browser(&stored_configuration(&docs))))
}

pub use wasm_core::setup::{FIRST_MANAGER, FIRST_MANAGER_EXISTS, FIRST_MANAGER_REQUIRED};

/// The first manager's form through wasm-core's rule (the wizard runs the same:
/// validateFirstManager), with the username looked up here; messages keyed `FirstManager.<field>`.
async fn check_first_manager(state: &AppState, m: &FirstManager) -> AppResult<ValidationErrors> {
    let rules = password_requirements(&state.db).await?;
    let taken = store::users::username_taken(&state.db, &m.form.username, None).await?;
    let mut errors = setup::validate_first_manager(m, Some(&rules), taken);
    let field = format!("{FIRST_MANAGER}.Password");
    if errors.field(&field).is_empty() {
        errors.merge(crate::password_rules::breached(&field, &m.password));
    }
    Ok(errors)
}

async fn save_configuration(
    State(state): State<AppState>,
    SetupOr(user, _): Setup,
    peer: ClientAddr,
    ApiJson(body): ApiJson<SaveConfigurationRequest>,
) -> AppResult<Json<SaveConfigurationResult>> {
    let SaveConfigurationRequest {
        mut cfg,
        first_manager,
    } = body;
    let was_configured = is_configured(&state).await?;
    let docs = load_groups(&state).await?;
    let stored = stored_configuration(&docs);
    // Which secrets the server holds is the server's to say, not the request's.
    cfg.stored_secrets = SECRET_FIELDS
        .iter()
        .filter(|f| {
            stored
                .get(**f)
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty())
        })
        .map(|f| (*f).to_owned())
        .collect();
    let cfg = setup::normalize_setup(&cfg);
    let mut check = setup::validate_setup(&cfg).errors;
    // The first account: only while unconfigured and while no Program manager exists; never twice.
    let needs_manager = !was_configured && !store::setup::program_manager_exists(&state.db).await?;
    match (&first_manager, needs_manager) {
        (Some(m), true) => check.merge(check_first_manager(&state, m).await?),
        (None, true) => check.add(FIRST_MANAGER, FIRST_MANAGER_REQUIRED),
        (Some(_), false) => check.add(FIRST_MANAGER, FIRST_MANAGER_EXISTS),
        (None, false) => {}
    }
    if !check.is_valid() {
        return Err(AppError::Validation(check));
    }
    let manager = match first_manager {
        Some(m) => Some((m.form, hashing::hash(m.password).await?)),
        None => None,
    };

    let portal_db_created = if !cfg.portal_sql_server_name.trim().is_empty() {
        let password = secret_or_stored(
            &state,
            &cfg.portal_sql_user_pwd,
            &stored,
            "PortalSqlUserPwd",
        );
        let test = ConnectionTest {
            data_connection_type: setup::SQL.to_owned(),
            sql_db_name: cfg.portal_sql_db_name.clone(),
            sql_server_name: cfg.portal_sql_server_name.clone(),
            sql_user_name: cfg.portal_sql_user_name.clone(),
            sql_user_pwd: password,
            integrated_security: cfg.portal_integrated_security,
            db_path: None,
        };
        create_database_if_missing(&test).await?
    } else {
        false
    };

    // Each group's fields as typed in the form; a secret as typed ("" keeps the stored one).
    let value = serde_json::to_value(&cfg).map_err(AppError::internal)?;
    let mut incoming: std::collections::BTreeMap<&str, Map<String, Value>> = Default::default();
    let mut changed_secrets = Vec::new();
    for (field, v) in value.as_object().into_iter().flatten() {
        let Some((group, key)) = group_of(field) else {
            continue;
        };
        if SECRET_FIELDS.contains(&field.as_str()) && v.as_str().is_some_and(|s| !s.is_empty()) {
            changed_secrets.push(field.clone());
        }
        incoming.entry(group).or_default().insert(key, v.clone());
    }

    // One transaction: the configured flag, every settings group (through the settings engine,
    // each with its audit row) and the first Program manager.
    let actor = user
        .as_ref()
        .map(Actor::from)
        .unwrap_or_else(Actor::anonymous);
    let ip = Some(peer.ip().to_string());
    let who = Who {
        actor,
        ip: ip.clone(),
    };
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    if !store::setup::claim_configured(&mut tx, now, was_configured).await? {
        // Someone else configured the portal after this save began: their configuration stands.
        return Err(AppError::Unauthorized);
    }
    for group in GROUPS {
        let def = engine::def(group)
            .ok_or_else(|| AppError::internal(format!("no settings group {group}")))?;
        let fields = incoming.remove(group).unwrap_or_default();
        engine::write_in(
            &mut tx,
            &state.secrets,
            who.clone(),
            def,
            Write::Fields,
            fields,
        )
        .await
        .map_err(|e| under_setup_names(group, e))?;
    }
    let manager_id = match &manager {
        Some((form, hash)) => {
            Some(store::setup::insert_first_manager(&mut tx, form, hash, now).await?)
        }
        None => None,
    };
    audit::record(
        &mut tx,
        actor,
        Action::ConfigurationSaved,
        Target { target_type: Some("Configuration"), target_id: None, target_user_id: None },
        None,
        // Names only for secrets; never their values.
        Some(json!({"ClientName": cfg.client_name, "ChangedSecrets": changed_secrets, "PortalDatabaseCreated": portal_db_created})),
        ip.clone(),
    )
    .await?;
    if let (Some(id), Some((form, _))) = (manager_id, &manager) {
        audit::record(
            &mut tx,
            actor,
            Action::UserCreated,
            Target::user(id),
            None,
            Some(json!({"Username": form.username.trim(), "Role": "ProgramManager", "FirstAccount": true})),
            ip,
        )
        .await?;
    }
    tx.commit().await?;
    settings::invalidate(&state.db);
    tracing::info!(client = %cfg.client_name, first_manager = manager_id.is_some(), "portal configured");
    let launch = if cfg.public_web_address.is_empty() {
        "/".to_owned()
    } else {
        cfg.public_web_address.clone()
    };
    Ok(Json(SaveConfigurationResult {
        success: true,
        error: None,
        launch_url: launch,
        portal_database_created: portal_db_created,
        first_manager_created: manager_id.is_some(),
    }))
}

/// A settings group's field messages (the engine's check of the group the wizard writes) under
/// the wizard's names of those fields (wasm-core `under_setup_names`), so the wizard shows them
/// under its own fields.
fn under_setup_names(group: &str, error: AppError) -> AppError {
    match error {
        AppError::Validation(errors) => {
            AppError::Validation(setup::under_setup_names(group, errors))
        }
        other => other,
    }
}

/// The typed secret, or (when left empty) the stored one decrypted.
fn secret_or_stored(
    state: &AppState,
    typed: &str,
    stored: &Map<String, Value>,
    field: &str,
) -> String {
    if !typed.is_empty() {
        return typed.to_owned();
    }
    stored
        .get(field)
        .and_then(Value::as_str)
        .and_then(|s| state.secrets.decrypt(s))
        .unwrap_or_default()
}

/// Creates the portal database on save when the server answers and it is missing.
async fn create_database_if_missing(test: &ConnectionTest) -> AppResult<bool> {
    let db = test.sql_db_name.trim();
    if db.is_empty() || !matches!(probe(test, db).await, DbProbe::DatabaseMissing) {
        return Ok(false);
    }
    let options = ct::pg_options(test, "postgres").map_err(AppError::BadRequest)?;
    let mut conn = tokio::time::timeout(TEST_TIMEOUT, options.connect())
        .await
        .map_err(|_| {
            AppError::BadRequest(format!(
                "{SAVE_FAILED}: no answer from the portal database server"
            ))
        })?
        .map_err(|e| AppError::BadRequest(format!("{SAVE_FAILED}: {e}")))?;
    store::setup::create_database(&mut conn, db)
        .await
        .map_err(|e| AppError::BadRequest(format!("{SAVE_FAILED}: {e}")))?;
    let _ = conn.close().await;
    Ok(true)
}

/// Fills an empty password from the stored secret of `field`.
async fn with_stored_password(
    state: &AppState,
    mut test: ConnectionTest,
    field: &str,
) -> AppResult<ConnectionTest> {
    if !test.integrated_security && test.sql_user_pwd.is_empty() {
        let docs = load_groups(state).await?;
        test.sql_user_pwd = secret_or_stored(state, "", &stored_configuration(&docs), field);
    }
    Ok(test)
}

async fn test_portal_db(
    State(state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(test): ApiJson<ConnectionTest>,
) -> AppResult<Json<ConnectionTestResult>> {
    let test = with_stored_password(&state, test, "PortalSqlUserPwd").await?;
    Ok(Json(ct::portal_db_test(&test).await))
}

async fn test_magview_db(
    State(state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(test): ApiJson<ConnectionTest>,
) -> AppResult<Json<ConnectionTestResult>> {
    if test.data_connection_type == setup::FOXPRO {
        return Ok(Json(
            ct::folder_test(test.db_path.as_deref().unwrap_or("")).await,
        ));
    }
    let test = with_stored_password(&state, test, "MagViewSqlUserPwd").await?;
    let db = test.sql_db_name.trim().to_owned();
    if db.is_empty() {
        return Ok(Json(failed("Database name is required".to_owned())));
    }
    Ok(Json(match probe(&test, &db).await {
        DbProbe::Connected => ok(CONNECTION_OK.to_owned(), true),
        DbProbe::DatabaseMissing => failed(format!("database \"{db}\" does not exist")),
        DbProbe::Failed(e) => failed(e),
    }))
}

async fn test_folder(
    State(_state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(body): ApiJson<FolderTestRequest>,
) -> AppResult<Json<ConnectionTestResult>> {
    Ok(Json(ct::folder_test(&body.path).await))
}

async fn test_web_address(
    State(_state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(body): ApiJson<WebAddressTestRequest>,
) -> AppResult<Json<ConnectionTestResult>> {
    Ok(Json(ct::web_address_test(&body.url).await))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_a_group() {
        let template = serde_json::to_value(SetupConfiguration::default()).unwrap();
        let mut missing = Vec::new();
        for field in template.as_object().unwrap().keys() {
            match field.as_str() {
                "StoredSecrets" | "SERVICE_ACCOUNT_PASSWORD_Confirm" => {
                    assert!(group_of(field).is_none())
                }
                _ => {
                    let (group, key) = group_of(field).expect(field);
                    let def = crate::settings::engine::def(group).expect(group);
                    if !def.defaults().contains_key(&key) {
                        missing.push(format!("{group}.{key}"));
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "setup fields with no typed field: {missing:?}"
        );
        assert_eq!(
            group_of("NOTIFICATION_Port"),
            Some((CORE_NOTIFICATIONS, "Port".to_owned()))
        );
        assert_eq!(
            group_of("EMAIL_SERVICE_Password"),
            Some((CORE_EMAIL_SERVICE, "Password".to_owned()))
        );
        assert_eq!(group_of("MagViewSqlUserPwd").unwrap().0, CORE_MAGVIEW);
        assert_eq!(group_of("SurveyPerLocation").unwrap().0, CORE_SURVEY);
        assert_eq!(
            group_of("IsInterfaceQueueEnabledForSurveyStart").unwrap().0,
            CORE_SURVEY
        );
        assert_eq!(group_of("ClientName").unwrap().0, settings::CORE_PORTAL);
        assert_eq!(
            group_of("PortalSqlUserPwd").unwrap().0,
            settings::CORE_PORTAL
        );
    }

    #[test]
    fn browser_never_sees_secrets() {
        let mut stored = Map::new();
        stored.insert("PortalSqlUserPwd".into(), json!("enc:v1:abc"));
        stored.insert("ClientName".into(), json!("C"));
        let cfg = for_browser(&stored);
        assert_eq!(cfg.portal_sql_user_pwd, "");
        assert_eq!(cfg.stored_secrets, ["PortalSqlUserPwd"]);
        assert_eq!(cfg.client_name, "C");
    }
}
