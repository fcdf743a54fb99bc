//! The one path every settings group is read and written through (issue 13 §1): each group is a
//! typed struct in wasm-core (`wasm_core::settings`); here it is stored as one JSON document with a
//! version, read completed with its defaults, and saved only at the version it was read at
//! (409 with the current document otherwise), validated by the group's own rules, with secrets
//! encrypted at rest and a field-by-field audit row in the same transaction.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};
use wasm_core::model::SettingsEnvelope;
use wasm_core::settings::SettingsGroup;
use wasm_core::ValidationErrors;

use crate::audit::{self, Action, Actor, Target};
use crate::db::{now_ms, Db, Tx};
use crate::error::{AppError, AppResult};
use crate::secrets::SecretBox;
use crate::store;

/// What the engine needs of a group, without its type.
pub struct Def {
    pub name: &'static str,
    pub secrets: &'static [&'static str],
    /// Secrets in the rows of a list (row_secrets.rs).
    pub row_secrets: &'static [wasm_core::settings::RowSecret],
    /// Edited as a settings form (GET/PUT /api/configurationForm/{name}).
    pub form: bool,
    /// The only fields a whole-document save changes (`None`: all; the others are read-only).
    pub form_fields: Option<&'static [&'static str]>,
    /// Every field with its default.
    defaults: fn() -> Map<String, Value>,
    /// Whether `doc` reads as the group (every field of the right type).
    reads: fn(&Map<String, Value>) -> bool,
    /// The group's derived rules and checks: the document to store, or the field messages.
    check: fn(Value) -> Result<Value, ValidationErrors>,
    /// The group's derived rules alone (a partial write whose own fields passed).
    normalize: fn(Value) -> Value,
}

fn defaults_of<T: SettingsGroup>() -> Map<String, Value> {
    match serde_json::to_value(T::default()) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

fn reads_as<T: SettingsGroup>(doc: &Map<String, Value>) -> bool {
    serde_json::from_value::<T>(Value::Object(doc.clone())).is_ok()
}

fn normalize_as<T: SettingsGroup>(doc: Value) -> Value {
    match serde_json::from_value::<T>(doc.clone()) {
        Ok(mut group) => {
            group.normalize();
            serde_json::to_value(group).unwrap_or(doc)
        }
        Err(_) => doc,
    }
}

fn check_as<T: SettingsGroup>(doc: Value) -> Result<Value, ValidationErrors> {
    let mut group: T = serde_json::from_value(doc).map_err(|_| {
        let mut e = ValidationErrors::new();
        e.add("", "The settings could not be read");
        e
    })?;
    group.normalize();
    let errors = group.validate();
    if !errors.is_valid() {
        return Err(errors);
    }
    serde_json::to_value(group).map_err(|_| ValidationErrors::new())
}

macro_rules! defs {
    ($($t:ty),* $(,)?) => {
        vec![$(Def {
            name: <$t as SettingsGroup>::NAME,
            secrets: <$t as SettingsGroup>::SECRETS,
            row_secrets: <$t as SettingsGroup>::ROW_SECRETS,
            form: <$t as SettingsGroup>::FORM,
            form_fields: <$t as SettingsGroup>::FORM_FIELDS,
            defaults: defaults_of::<$t>,
            reads: reads_as::<$t>,
            check: check_as::<$t>,
            normalize: normalize_as::<$t>,
        }),*]
    };
}

fn all() -> &'static [Def] {
    static ALL: OnceLock<Vec<Def>> = OnceLock::new();
    ALL.get_or_init(|| wasm_core::for_each_group!(defs))
}

/// The group called `name` (the spec's spelling, exactly).
pub fn def(name: &str) -> Option<&'static Def> {
    all().iter().find(|d| d.name == name)
}

/// Every group, for start-up and tests.
pub fn defs() -> &'static [Def] {
    all()
}

impl Def {
    pub fn defaults(&self) -> Map<String, Value> {
        (self.defaults)()
    }

    /// A stored document completed: unknown keys dropped, missing fields their default, and a
    /// stored value of the wrong type (written by an older version or by hand) its default too,
    /// field by field, so one bad value never hides the others.
    pub fn complete(&self, stored: Option<&str>) -> Map<String, Value> {
        let mut doc = self.defaults();
        let Some(Ok(Value::Object(stored))) = stored.map(serde_json::from_str::<Value>) else {
            return doc;
        };
        let mut all_at_once = doc.clone();
        for (key, value) in &stored {
            if let Some(slot) = all_at_once.get_mut(key) {
                *slot = value.clone();
            }
        }
        if (self.reads)(&all_at_once) {
            return all_at_once;
        }
        for (key, value) in stored {
            if !doc.contains_key(&key) {
                continue;
            }
            let before = doc.insert(key.clone(), value);
            if !(self.reads)(&doc) {
                if let Some(v) = before {
                    doc.insert(key, v);
                }
            }
        }
        doc
    }

    /// The envelope a browser gets: secrets answered empty, the stored ones named.
    pub fn envelope(
        &self,
        version: i64,
        mut doc: Map<String, Value>,
    ) -> SettingsEnvelope<Map<String, Value>> {
        let mut stored_secrets = Vec::new();
        for secret in self.secrets {
            if let Some(v) = doc.get_mut(*secret) {
                if v.as_str().is_some_and(|s| !s.is_empty()) {
                    stored_secrets.push((*secret).to_owned());
                }
                *v = Value::String(String::new());
            }
        }
        stored_secrets.extend(super::row_secrets::answer(self.row_secrets, &mut doc));
        SettingsEnvelope {
            name: self.name.to_owned(),
            version,
            settings: doc,
            stored_secrets,
        }
    }
}

/// The stored version (0: never saved) and completed document of a group.
pub async fn read(db: &Db, def: &Def) -> AppResult<(i64, Map<String, Value>)> {
    let row = store::settings::read(db, def.name).await?;
    let version = row.as_ref().map_or(0, |(v, _)| *v);
    Ok((version, def.complete(row.as_ref().map(|(_, b)| b.as_str()))))
}

/// Stands in for a kept secret while the document is checked (its ciphertext is not what the
/// user typed, and length rules must not see it).
const KEPT_SECRET: &str = "********";
pub const STALE_MESSAGE: &str =
    "Someone else saved these settings after you opened them. Reload to see their changes.";

/// Saves `incoming` (the whole document; keys it lacks keep their stored value, unknown keys are
/// dropped) as group `def` if its stored version is still `version`. Validation failures are
/// 400 with field messages and store nothing; a stale version is 409 with the current envelope.
///
/// The document is read, checked and serialised before the transaction, which then only writes
/// at the version read (a save that lost the race in between is stale too): on SQLite, where
/// writers take turns, a save's share of a turn is two statements, and the saves waiting for
/// the turn are written together (`group_commit`).
pub async fn save(
    db: &Db,
    secrets: &SecretBox,
    who: Who,
    def: &'static Def,
    version: i64,
    incoming: Map<String, Value>,
) -> AppResult<SettingsEnvelope<Map<String, Value>>> {
    let (current_version, current) = read(db, def).await?;
    let prepared = Arc::new(prepare(
        secrets,
        def,
        Write::Whole(version),
        current_version,
        current,
        &incoming,
    )?);
    let stored = super::group_commit::commit(db, who, def, prepared.clone()).await?;
    super::invalidate(db);
    if !stored {
        let (v, doc) = read(db, def).await?;
        return Err(stale(def, v, doc));
    }
    Ok(def.envelope(prepared.version, prepared.next.clone()))
}

/// Sets some fields of group `def` at whatever version is stored (values edited one key at a
/// time, such as PortalValues; loaders): validated and audited like [`save`]. A write that lost
/// the race to another is checked again over the newer document.
pub async fn save_fields(
    db: &Db,
    secrets: &SecretBox,
    who: Who,
    def: &Def,
    fields: Map<String, Value>,
) -> AppResult<Map<String, Value>> {
    save_fields_as(db, secrets, who, def, fields, action_for(def))
        .await
        .map(|(_, doc)| doc)
}

/// [`save_fields`] audited as `action` (a reset to defaults ...); answers the new version too.
pub async fn save_fields_as(
    db: &Db,
    secrets: &SecretBox,
    who: Who,
    def: &Def,
    fields: Map<String, Value>,
    action: Action,
) -> AppResult<(i64, Map<String, Value>)> {
    for _ in 0..5 {
        let (current_version, current) = read(db, def).await?;
        let mut prepared = prepare(
            secrets,
            def,
            Write::Fields,
            current_version,
            current,
            &fields,
        )?;
        prepared.action = action;
        let mut tx = db.begin().await?;
        let stored = store_prepared(&mut tx, who.clone(), def, &prepared).await?;
        tx.commit().await?;
        super::invalidate(db);
        if stored {
            return Ok((prepared.version, prepared.next));
        }
    }
    let (v, doc) = read(db, def).await?;
    Err(stale(def, v, doc))
}

/// Who saves, for the audit row.
#[derive(Debug, Clone)]
pub struct Who {
    pub actor: Actor,
    pub ip: Option<String>,
}

/// What a write replaces.
#[derive(Debug, Clone, Copy)]
pub enum Write {
    /// The whole document, read at this version (a settings form).
    Whole(i64),
    /// Some fields, over whatever is stored (values set by key, the setup wizard's share of a
    /// group). Only the messages of the fields written refuse it: a field the writer does not
    /// hold (say CoreMagview's SchedulerApptType, which the wizard does not ask) is the
    /// group's own form's to require.
    Fields,
}

/// The save inside the caller's transaction (several groups in one, as the setup wizard does).
/// Returns the new version and the stored document; the caller commits and then calls
/// `settings::invalidate`.
pub async fn write_in(
    tx: &mut Tx,
    secrets: &SecretBox,
    who: Who,
    def: &Def,
    write: Write,
    incoming: Map<String, Value>,
) -> AppResult<(i64, Map<String, Value>)> {
    let row = store::settings::read_in(tx, def.name).await?;
    let current_version = row.as_ref().map_or(0, |(v, _)| *v);
    let current = def.complete(row.as_ref().map(|(_, b)| b.as_str()));
    let prepared = prepare(secrets, def, write, current_version, current, &incoming)?;
    if !store_prepared(tx, who, def, &prepared).await? {
        // Someone wrote between this transaction's read and its write (PostgreSQL).
        let row = store::settings::read_in(tx, def.name).await?;
        let version = row.as_ref().map_or(0, |(v, _)| *v);
        return Err(stale(
            def,
            version,
            def.complete(row.as_ref().map(|(_, b)| b.as_str())),
        ));
    }
    Ok((prepared.version, prepared.next))
}

/// A checked save, ready to be written at the version it was read at.
pub(super) struct Prepared {
    read_version: i64,
    /// The version after the write (the read one when nothing changed).
    version: i64,
    next: Map<String, Value>,
    /// `next` as the stored JSON text, written before the write turn is taken.
    body: String,
    /// Old and new values of the fields that changed (nothing to write when empty).
    old: Map<String, Value>,
    new: Map<String, Value>,
    /// The audit action of the write.
    action: Action,
}

/// The audit action of a save of `def`: the techpad groups' saves are Techpad Log entries
/// (category "Techpad", issue 18); every other group's is SettingsSaved.
pub fn action_for(def: &Def) -> Action {
    if wasm_core::settings::TECHPAD_CATEGORIES
        .iter()
        .any(|(_, group)| *group == def.name)
    {
        Action::TechpadSettingsSaved
    } else {
        Action::SettingsSaved
    }
}

/// Rich-text fields (group, field): sanitised on the server before every save (Quill's HTML with
/// its own classes only, `crate::html::sanitise_quill_html`), whatever path writes them.
const RICH_TEXT: &[(&str, &str)] = &[("OtherSettings", "HelpModalContent")];

/// `incoming` over the `current` document at `current_version`: secrets, the group's rules,
/// the changed fields. No I/O.
fn prepare(
    secrets: &SecretBox,
    def: &Def,
    write: Write,
    current_version: i64,
    current: Map<String, Value>,
    incoming: &Map<String, Value>,
) -> AppResult<Prepared> {
    if matches!(write, Write::Whole(v) if v != current_version) {
        return Err(stale(def, current_version, current));
    }
    let mut candidate = current.clone();
    let writable = |key: &str| match (write, def.form_fields) {
        (Write::Whole(_), Some(fields)) => fields.contains(&key),
        _ => true,
    };
    for (key, value) in incoming.iter() {
        if candidate.contains_key(key) && !def.secrets.contains(&key.as_str()) && writable(key) {
            candidate.insert(key.clone(), value.clone());
        }
    }
    for (group, field) in RICH_TEXT {
        if *group == def.name {
            if let Some(Value::String(html)) = candidate.get(*field) {
                let clean = crate::html::sanitise_quill_html(html);
                candidate.insert((*field).to_owned(), Value::String(clean));
            }
        }
    }
    // Secrets: a typed value replaces the stored one; empty (or absent) keeps it.
    let mut typed_secrets = Vec::new();
    for secret in def.secrets {
        let typed = incoming
            .get(*secret)
            .and_then(Value::as_str)
            .filter(|_| writable(secret))
            .unwrap_or_default();
        let stored = current
            .get(*secret)
            .and_then(Value::as_str)
            .unwrap_or_default();
        let shown = if !typed.is_empty() {
            typed_secrets.push(*secret);
            typed
        } else if !stored.is_empty() {
            KEPT_SECRET
        } else {
            ""
        };
        candidate.insert((*secret).to_owned(), Value::String(shown.to_owned()));
    }
    let rows = super::row_secrets::plan(
        def.row_secrets,
        secrets,
        &current,
        &mut candidate,
        |list| incoming.contains_key(list) && writable(list),
        KEPT_SECRET,
    );
    let checked = match (def.check)(Value::Object(candidate.clone())) {
        Ok(doc) => doc,
        Err(errors) => {
            let errors = match write {
                Write::Whole(_) => errors,
                Write::Fields => of_fields(errors, incoming),
            };
            if !errors.is_valid() {
                return Err(AppError::Validation(errors));
            }
            (def.normalize)(Value::Object(candidate))
        }
    };
    let Value::Object(mut next) = checked else {
        return Err(AppError::internal(
            "a settings group did not serialise to an object",
        ));
    };
    for secret in def.secrets {
        let value = if typed_secrets.contains(secret) {
            let plain = next
                .get(*secret)
                .and_then(Value::as_str)
                .unwrap_or_default();
            Value::String(secrets.encrypt(plain))
        } else {
            current
                .get(*secret)
                .cloned()
                .unwrap_or(Value::String(String::new()))
        };
        next.insert((*secret).to_owned(), value);
    }
    rows.seal(def.row_secrets, &mut next);
    let (old, new) = changes(
        def,
        &rows.audited(def.row_secrets, &current, false),
        &rows.audited(def.row_secrets, &next, true),
        &typed_secrets,
    );
    let (version, body) = if new.is_empty() {
        (current_version, String::new())
    } else {
        (current_version + 1, Value::Object(next.clone()).to_string())
    };
    Ok(Prepared {
        read_version: current_version,
        version,
        next,
        body,
        old,
        new,
        action: action_for(def),
    })
}

/// Writes a prepared save and its audit row in `tx`; false when the stored version is no longer
/// the one it was read at. Nothing changed: nothing written, no audit row.
pub(super) async fn store_prepared(
    tx: &mut Tx,
    who: Who,
    def: &Def,
    p: &Prepared,
) -> AppResult<bool> {
    if p.new.is_empty() {
        return Ok(true);
    }
    if !store::settings::write_at(tx, def.name, p.read_version, &p.body, now_ms()).await? {
        return Ok(false);
    }
    audit::record(
        tx,
        who.actor,
        p.action,
        Target {
            target_type: Some("SettingsGroup"),
            target_id: Some(def.name.to_owned()),
            target_user_id: None,
        },
        Some(Value::Object(p.old.clone())),
        Some(Value::Object(p.new.clone())),
        who.ip,
    )
    .await?;
    Ok(true)
}

/// The messages of the fields in `written` (a field's rows too: `List.0.Name` belongs to `List`),
/// and of the whole document ("").
fn of_fields(errors: ValidationErrors, written: &Map<String, Value>) -> ValidationErrors {
    let mut kept = ValidationErrors::new();
    for (field, messages) in errors.0 {
        let top = field.split('.').next().unwrap_or_default();
        if field.is_empty() || written.contains_key(top) {
            for message in messages {
                kept.add(&field, message);
            }
        }
    }
    kept
}

fn stale(def: &Def, version: i64, doc: Map<String, Value>) -> AppError {
    AppError::Stale {
        message: STALE_MESSAGE.to_owned(),
        current: Box::new(def.envelope(version, doc)),
    }
}

/// The fields that changed, old and new values side by side (spec 01 §3 "Portal audit entry");
/// a secret is named with no value.
fn changes(
    def: &Def,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    typed_secrets: &[&str],
) -> (Map<String, Value>, Map<String, Value>) {
    let mut before = Map::new();
    let mut after = Map::new();
    for (key, value) in new {
        if def.secrets.contains(&key.as_str()) {
            if typed_secrets.contains(&key.as_str()) {
                before.insert(key.clone(), Value::String("(secret)".into()));
                after.insert(key.clone(), Value::String("(changed)".into()));
            }
            continue;
        }
        let was = old.get(key).cloned().unwrap_or(Value::Null);
        if &was != value {
            before.insert(key.clone(), was);
            after.insert(key.clone(), value.clone());
        }
    }
    (before, after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_is_registered_once() {
        let names: Vec<_> = defs().iter().map(|d| d.name).collect();
        assert_eq!(names, wasm_core::settings::GROUP_NAMES);
    }

    #[test]
    fn a_stored_value_of_the_wrong_type_takes_its_default_alone() {
        let def = def("HistoryPortal").unwrap();
        let doc = def.complete(Some(
            r#"{"HistoryPortalBusinessDays": "weekdays", "HrsAppointmentTimeValue": 6, "Gone": 1}"#,
        ));
        assert_eq!(doc["HrsAppointmentTimeValue"], 6);
        assert_eq!(
            doc["HistoryPortalBusinessDays"],
            def.defaults()["HistoryPortalBusinessDays"]
        );
        assert!(!doc.contains_key("Gone"));
        assert_eq!(def.complete(Some("not json")), def.defaults());
    }

    #[test]
    fn secrets_are_answered_empty_and_named() {
        let def = def("CorePortal").unwrap();
        let mut doc = def.defaults();
        doc.insert("PortalSqlUserPwd".into(), Value::String("enc:xyz".into()));
        let env = def.envelope(3, doc);
        assert_eq!(env.settings["PortalSqlUserPwd"], "");
        assert_eq!(env.stored_secrets, ["PortalSqlUserPwd"]);
    }

    #[test]
    fn changes_list_only_changed_fields_and_no_secret_values() {
        let def = def("CorePortal").unwrap();
        let old = def.defaults();
        let mut new = old.clone();
        new.insert("ClientName".into(), Value::String("New".into()));
        new.insert("PortalSqlUserPwd".into(), Value::String("enc:abc".into()));
        let (before, after) = changes(def, &old, &new, &["PortalSqlUserPwd"]);
        assert_eq!(after["ClientName"], "New");
        assert_eq!(before["ClientName"], "Demo Breast Imaging");
        assert_eq!(after["PortalSqlUserPwd"], "(changed)");
        assert_eq!(after.len(), 2);
    }
}
