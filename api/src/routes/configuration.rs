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

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use serde_json::{json, Map, Value};
use sqlx::postgres::PgConnectOptions;
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
use crate::db::now_ms;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::password_rules::password_requirements;
use crate::settings::engine::{self, Who, Write};
use crate::{settings, store, AppState};

pub const SAVE_FAILED: &str = "Error while saving configuration";
pub const CONNECTION_OK: &str = "Connection successfully established";
pub const CONNECTION_FAILED: &str = "Test Connection Failed";
pub const CORE_MAGVIEW: &str = "CoreMagview";
pub const CORE_NOTIFICATIONS: &str = "CoreNotifications";
pub const CORE_EMAIL_SERVICE: &str = "CoreEmailService";
pub const CORE_SURVEY: &str = "CoreSurvey";

/// How long a connection test may wait for an answer.
const TEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Site-usage event type of a page change (spec 03 §3 UrlHit).
pub const EVENT_URL_HIT: i64 = 0;
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

/// The RadView settings file looked for beside the MagView database (any letter case).
pub const RADVIEW_SETTINGS_FILE: &str = "RadView.ini";

/// The RadView path named by the settings file beside `db_path` (spec 02 §7.5).
pub fn detect_radview(db_path: &str) -> Result<String, String> {
    let given = db_path.trim();
    if given.is_empty() {
        return Err("The MagView path is required to find RadView".to_owned());
    }
    let given = Path::new(given);
    let folder = match std::fs::metadata(given) {
        Ok(m) if m.is_dir() => given.to_path_buf(),
        Ok(_) => given.parent().map(Path::to_path_buf).unwrap_or_default(),
        Err(e) => return Err(format!("MagView path not found: {} ({e})", given.display())),
    };
    let entries = std::fs::read_dir(&folder)
        .map_err(|e| format!("Folder cannot be read: {} ({e})", folder.display()))?;
    let file = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.eq_ignore_ascii_case(RADVIEW_SETTINGS_FILE))
        })
        .ok_or_else(|| {
            format!(
                "No RadView settings file ({RADVIEW_SETTINGS_FILE}) in {}",
                folder.display()
            )
        })?;
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("{} cannot be read ({e})", file.display()))?;
    let value = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with(';') && !l.starts_with('#') && !l.starts_with('['))
        .filter_map(|l| l.split_once('='))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("RadViewPath"))
        .map(|(_, v)| v.trim().trim_matches('"').to_owned())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("{} has no RadViewPath", file.display()))?;
    let path = Path::new(&value);
    let resolved = if path.is_absolute() {
        path.to_path_buf()
    } else {
        folder.join(path)
    };
    if !resolved.is_dir() {
        return Err(format!(
            "The RadView path {} named in {} is not a folder",
            resolved.display(),
            file.display()
        ));
    }
    Ok(resolved.display().to_string())
}

async fn detect_radview_path(
    State(_state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(body): ApiJson<RadViewDetectRequest>,
) -> AppResult<Json<RadViewDetectResult>> {
    Ok(Json(match detect_radview(&body.db_path) {
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
    crate::store::documents::record_site_usage(
        &state.db,
        EVENT_URL_HIT,
        user_id,
        patient_id,
        "",
        url,
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
    Ok(setup::validate_first_manager(m, Some(&rules), taken))
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

fn pg_options(test: &ConnectionTest, database: &str) -> Result<PgConnectOptions, String> {
    let server = test.sql_server_name.trim();
    if server.is_empty() {
        return Err("Server name is required".to_owned());
    }
    let (host, port) = match server.rsplit_once(':') {
        Some((h, p)) if !h.is_empty() && p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty() => {
            (
                h,
                p.parse::<u16>()
                    .map_err(|_| format!("Invalid port in {server}"))?,
            )
        }
        _ => (server, 5432),
    };
    let mut options = PgConnectOptions::from_str("postgres://localhost")
        .map_err(|e| e.to_string())?
        .host(host)
        .port(port)
        .database(database)
        .application_name("portal-setup-test")
        .disable_statement_logging();
    if test.integrated_security {
        // The server's own identity: the operating-system user the portal runs as.
        if let Ok(user) = std::env::var("USER") {
            options = options.username(&user);
        }
    } else {
        options = options
            .username(test.sql_user_name.trim())
            .password(&test.sql_user_pwd);
    }
    Ok(options)
}

enum DbProbe {
    Connected,
    DatabaseMissing,
    Failed(String),
}

async fn probe(test: &ConnectionTest, database: &str) -> DbProbe {
    let options = match pg_options(test, database) {
        Ok(o) => o,
        Err(e) => return DbProbe::Failed(e),
    };
    match tokio::time::timeout(TEST_TIMEOUT, options.connect()).await {
        Err(_) => DbProbe::Failed(format!(
            "No answer from {} within {} s",
            test.sql_server_name.trim(),
            TEST_TIMEOUT.as_secs()
        )),
        Ok(Ok(conn)) => {
            let _ = conn.close().await;
            DbProbe::Connected
        }
        Ok(Err(sqlx::Error::Database(e))) if e.code().as_deref() == Some("3D000") => {
            DbProbe::DatabaseMissing
        }
        Ok(Err(e)) => DbProbe::Failed(e.to_string()),
    }
}

fn ok(message: String, exists: bool) -> ConnectionTestResult {
    ConnectionTestResult {
        success: true,
        error: None,
        is_data_base_exist: exists,
        message,
    }
}

fn failed(error: String) -> ConnectionTestResult {
    ConnectionTestResult {
        success: false,
        error: Some(error),
        is_data_base_exist: false,
        message: CONNECTION_FAILED.to_owned(),
    }
}

/// Portal database: connected, or the server answers (to its `postgres` database) but the named
/// database is missing (a warning: saving creates it), or failure with the server's error.
async fn portal_db_test(test: &ConnectionTest) -> ConnectionTestResult {
    let db = test.sql_db_name.trim();
    if db.is_empty() {
        return failed("Database name is required".to_owned());
    }
    match probe(test, db).await {
        DbProbe::Connected => ok(CONNECTION_OK.to_owned(), true),
        DbProbe::Failed(e) => failed(e),
        DbProbe::DatabaseMissing => match probe(test, "postgres").await {
            DbProbe::Connected => ok(
                format!("{CONNECTION_OK}. The database '{db}' does not exist and will be created when the configuration is saved."),
                false,
            ),
            DbProbe::DatabaseMissing => failed(format!("database \"{db}\" does not exist")),
            DbProbe::Failed(e) => failed(e),
        },
    }
}

/// Creates the portal database on save when the server answers and it is missing.
async fn create_database_if_missing(test: &ConnectionTest) -> AppResult<bool> {
    let db = test.sql_db_name.trim();
    if db.is_empty() || !matches!(probe(test, db).await, DbProbe::DatabaseMissing) {
        return Ok(false);
    }
    let options = pg_options(test, "postgres").map_err(AppError::BadRequest)?;
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

fn folder_test(path: &str) -> ConnectionTestResult {
    let path = path.trim();
    if path.is_empty() {
        return failed("Folder path is required".to_owned());
    }
    let p = Path::new(path);
    match std::fs::metadata(p) {
        Err(e) => failed(format!("Folder not found: {path} ({e})")),
        Ok(m) if !m.is_dir() => failed(format!("Not a folder: {path}")),
        Ok(_) => match std::fs::read_dir(p) {
            Ok(_) => ok(format!("Folder found: {path}"), true),
            Err(e) => failed(format!("Folder cannot be read: {path} ({e})")),
        },
    }
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
    Ok(Json(portal_db_test(&test).await))
}

async fn test_magview_db(
    State(state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(test): ApiJson<ConnectionTest>,
) -> AppResult<Json<ConnectionTestResult>> {
    if test.data_connection_type == setup::FOXPRO {
        return Ok(Json(folder_test(test.db_path.as_deref().unwrap_or(""))));
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
    Ok(Json(folder_test(&body.path)))
}

async fn web_address_test(url: &str) -> ConnectionTestResult {
    let url = setup::test_url(url);
    if url.is_empty() {
        return failed("Web address is required".to_owned());
    }
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return failed(format!("Not an http(s) address: {url}"));
    }
    let client = match reqwest::Client::builder()
        .timeout(TEST_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
    {
        Ok(c) => c,
        Err(e) => return failed(e.to_string()),
    };
    match client.get(&url).send().await {
        Ok(res) if res.status().is_success() || res.status().is_redirection() => ok(
            format!("{CONNECTION_OK}: {url} answered {}", res.status()),
            true,
        ),
        Ok(res) => failed(format!("{url} answered {}", res.status())),
        Err(e) if e.is_timeout() => failed(format!(
            "No answer from {url} within {} s",
            TEST_TIMEOUT.as_secs()
        )),
        Err(e) => failed(format!("{url}: {}", error_chain(&e))),
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

async fn test_web_address(
    State(_state): State<AppState>,
    SetupOr(_user, _): Setup,
    ApiJson(body): ApiJson<WebAddressTestRequest>,
) -> AppResult<Json<ConnectionTestResult>> {
    Ok(Json(web_address_test(&body.url).await))
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

    #[test]
    fn radview_path_comes_from_the_settings_file_beside_the_database() {
        let dir = std::env::temp_dir().join(format!(
            "radview-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let magview = dir.join("magview");
        let radview = dir.join("radview-data");
        std::fs::create_dir_all(&magview).unwrap();
        std::fs::create_dir_all(&radview).unwrap();
        let db = magview.join("magview.dbc");
        std::fs::write(&db, "x").unwrap();
        let m = magview.display().to_string();
        assert!(detect_radview(&m)
            .unwrap_err()
            .starts_with("No RadView settings file (RadView.ini) in "));
        std::fs::write(
            magview.join("radview.INI"),
            "[General]\n; comment\nServer=rv1\n",
        )
        .unwrap();
        assert!(detect_radview(&m)
            .unwrap_err()
            .ends_with("has no RadViewPath"));
        std::fs::write(
            magview.join("radview.INI"),
            format!("[General]\nradviewpath = \"{}\"\n", radview.display()),
        )
        .unwrap();
        assert_eq!(detect_radview(&m).unwrap(), radview.display().to_string());
        // A file path: its folder is searched. A relative path: from the file's folder.
        std::fs::write(magview.join("radview.INI"), "RadViewPath=../radview-data\n").unwrap();
        assert_eq!(
            detect_radview(&db.display().to_string()).unwrap(),
            magview.join("../radview-data").display().to_string()
        );
        std::fs::write(
            magview.join("radview.INI"),
            "RadViewPath=/no/such/radview\n",
        )
        .unwrap();
        assert!(detect_radview(&m).unwrap_err().contains("is not a folder"));
        assert!(detect_radview("/no/such/magview")
            .unwrap_err()
            .starts_with("MagView path not found"));
        assert_eq!(
            detect_radview(" ").unwrap_err(),
            "The MagView path is required to find RadView"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn web_address_test_refuses_other_schemes_and_reports_failures() {
        assert!(!web_address_test("ftp://x").await.success);
        assert!(!web_address_test("").await.success);
        // Nothing listens on port 9 of loopback.
        let r = web_address_test("http://127.0.0.1:9").await;
        assert!(!r.success && r.message == CONNECTION_FAILED, "{r:?}");
    }
}
