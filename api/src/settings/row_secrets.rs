//! Secrets kept in the rows of a list (each webhook's own credential; wasm-core
//! `SettingsGroup::ROW_SECRETS`), stored like the engine's other secrets (secrets.rs,
//! `enc:v1:`), never answered. A row is known by its id, which the server gives: a save keeps
//! the stored secret of the row with the same id when it leaves the field empty, replaces it
//! when a value is typed, removes it when the row asks (its clear flag) or when the row is gone.
//! Ids follow the rows, not their places, so removing the first webhook never hands its
//! credential to the second.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use wasm_core::settings::RowSecret;

use crate::secrets::SecretBox;

/// What a save stores in the row secrets, decided before the group's check.
#[derive(Default)]
pub(super) struct RowPlan {
    /// (list, row id) -> the value to store (ciphertext, or empty).
    stored: HashMap<(&'static str, String), String>,
    /// (list, row id) of the rows whose secret was typed in this save (for the audit).
    typed: HashSet<(&'static str, String)>,
}

fn rows_mut<'a>(
    doc: &'a mut Map<String, Value>,
    list: &str,
) -> impl Iterator<Item = &'a mut Map<String, Value>> {
    doc.get_mut(list)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

fn str_of<'a>(row: &'a Map<String, Value>, field: &str) -> &'a str {
    row.get(field).and_then(Value::as_str).unwrap_or_default()
}

/// Over `candidate` (the stored document with the incoming fields written over it): gives every
/// row an id (a new row, or one whose id the store does not hold or that repeats, gets a fresh
/// one), sets each row's secret to what the group's check should see (`kept` for a stored one
/// that stays: its length rules are the typed value's, not the ciphertext's) and clears the
/// clear flags. `incoming_has(list)`: whether the save wrote the list (else its rows are the
/// stored ones as they are).
pub(super) fn plan(
    row_secrets: &'static [RowSecret],
    secrets: &SecretBox,
    current: &Map<String, Value>,
    candidate: &mut Map<String, Value>,
    incoming_has: impl Fn(&str) -> bool,
    kept: &str,
) -> RowPlan {
    let mut out = RowPlan::default();
    for rs in row_secrets {
        let stored_by_id: HashMap<String, String> = current
            .get(rs.list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .map(|row| {
                (
                    str_of(row, rs.id).to_owned(),
                    str_of(row, rs.secret).to_owned(),
                )
            })
            .filter(|(id, _)| !id.is_empty())
            .collect();
        let written = incoming_has(rs.list);
        let mut seen = HashSet::new();
        for row in rows_mut(candidate, rs.list) {
            let mut id = str_of(row, rs.id).to_owned();
            if id.is_empty() || (written && !stored_by_id.contains_key(&id)) || seen.contains(&id) {
                id = crate::auth::random_token();
            }
            seen.insert(id.clone());
            let typed = if written {
                str_of(row, rs.secret).to_owned()
            } else {
                String::new()
            };
            let clear = written && row.get(rs.clear).and_then(Value::as_bool).unwrap_or(false);
            let held = stored_by_id.get(&id).cloned().unwrap_or_default();
            let (store, check) = if !typed.is_empty() {
                out.typed.insert((rs.list, id.clone()));
                (secrets.encrypt(&typed), typed)
            } else if clear || held.is_empty() {
                (String::new(), String::new())
            } else {
                (held, kept.to_owned())
            };
            out.stored.insert((rs.list, id.clone()), store);
            row.insert(rs.id.to_owned(), Value::String(id));
            row.insert(rs.secret.to_owned(), Value::String(check));
            row.insert(rs.clear.to_owned(), Value::Bool(false));
        }
    }
    out
}

impl RowPlan {
    /// Puts the values to store into the checked document's rows (by id).
    pub(super) fn seal(&self, row_secrets: &'static [RowSecret], next: &mut Map<String, Value>) {
        for rs in row_secrets {
            for row in rows_mut(next, rs.list) {
                let id = str_of(row, rs.id).to_owned();
                let value = self.stored.get(&(rs.list, id)).cloned().unwrap_or_default();
                row.insert(rs.secret.to_owned(), Value::String(value));
            }
        }
    }

    /// The document as the audit compares it: a row's secret is "(secret)" when one is held,
    /// "(changed)" when this save typed it (`typed_here`), else empty; never its value.
    pub(super) fn audited(
        &self,
        row_secrets: &'static [RowSecret],
        doc: &Map<String, Value>,
        typed_here: bool,
    ) -> Map<String, Value> {
        let mut doc = doc.clone();
        for rs in row_secrets {
            for row in rows_mut(&mut doc, rs.list) {
                let id = str_of(row, rs.id).to_owned();
                let shown = if typed_here && self.typed.contains(&(rs.list, id)) {
                    "(changed)"
                } else if str_of(row, rs.secret).is_empty() {
                    ""
                } else {
                    "(secret)"
                };
                row.insert(rs.secret.to_owned(), Value::String(shown.to_owned()));
            }
        }
        doc
    }
}

/// The document a browser gets: every row secret empty; the rows holding one named as
/// `List.{i}.Field` (their places in this answer).
pub(super) fn answer(
    row_secrets: &'static [RowSecret],
    doc: &mut Map<String, Value>,
) -> Vec<String> {
    let mut held = Vec::new();
    for rs in row_secrets {
        for (i, row) in rows_mut(doc, rs.list).enumerate() {
            if !str_of(row, rs.secret).is_empty() {
                held.push(format!("{}.{i}.{}", rs.list, rs.secret));
            }
            row.insert(rs.secret.to_owned(), Value::String(String::new()));
            row.insert(rs.clear.to_owned(), Value::Bool(false));
        }
    }
    held
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HOOKS: &[RowSecret] = &[RowSecret {
        list: "WebHooks",
        id: "Id",
        secret: "AuthorizationSecret",
        clear: "ClearAuthorizationSecret",
    }];

    fn doc(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_secret_follows_its_row_not_its_place() {
        let sb = SecretBox::from_key(&[3u8; 32]);
        let a = sb.encrypt("alpha");
        let b = sb.encrypt("beta");
        let current = doc(json!({"WebHooks": [
            {"Id": "a", "AuthorizationSecret": a, "ClearAuthorizationSecret": false},
            {"Id": "b", "AuthorizationSecret": b, "ClearAuthorizationSecret": false}]}));
        // The first webhook removed, a new one added (with a forged id), nothing typed.
        let mut candidate = doc(json!({"WebHooks": [
            {"Id": "b", "AuthorizationSecret": "", "ClearAuthorizationSecret": false},
            {"Id": "zz", "AuthorizationSecret": "", "ClearAuthorizationSecret": false}]}));
        let plan = plan(HOOKS, &sb, &current, &mut candidate, |_| true, "***");
        assert_eq!(candidate["WebHooks"][0]["AuthorizationSecret"], "***");
        assert_eq!(candidate["WebHooks"][1]["AuthorizationSecret"], "");
        assert_ne!(candidate["WebHooks"][1]["Id"], "zz", "ids are the server's");
        let mut next = candidate.clone();
        plan.seal(HOOKS, &mut next);
        let kept = next["WebHooks"][0]["AuthorizationSecret"].as_str().unwrap();
        assert_eq!(sb.decrypt(kept).as_deref(), Some("beta"));
        assert_eq!(next["WebHooks"][1]["AuthorizationSecret"], "");
        let held = answer(HOOKS, &mut next);
        assert_eq!(held, ["WebHooks.0.AuthorizationSecret"]);
        assert_eq!(next["WebHooks"][0]["AuthorizationSecret"], "");
    }

    #[test]
    fn typed_replaces_clear_removes_and_a_repeated_id_inherits_nothing() {
        let sb = SecretBox::from_key(&[3u8; 32]);
        let current = doc(json!({"WebHooks": [
            {"Id": "a", "AuthorizationSecret": sb.encrypt("alpha")},
            {"Id": "b", "AuthorizationSecret": sb.encrypt("beta")}]}));
        let mut candidate = doc(json!({"WebHooks": [
            {"Id": "a", "AuthorizationSecret": "new", "ClearAuthorizationSecret": false},
            {"Id": "b", "AuthorizationSecret": "", "ClearAuthorizationSecret": true},
            {"Id": "a", "AuthorizationSecret": "", "ClearAuthorizationSecret": false}]}));
        let plan = plan(HOOKS, &sb, &current, &mut candidate, |_| true, "***");
        let mut next = candidate.clone();
        plan.seal(HOOKS, &mut next);
        let rows = next["WebHooks"].as_array().unwrap();
        let first = rows[0]["AuthorizationSecret"].as_str().unwrap();
        assert_eq!(sb.decrypt(first).as_deref(), Some("new"));
        assert_eq!(rows[1]["AuthorizationSecret"], "");
        assert_eq!(rows[1]["ClearAuthorizationSecret"], false);
        assert_eq!(rows[2]["AuthorizationSecret"], "");
        assert_ne!(rows[2]["Id"], "a");
        let before = plan.audited(HOOKS, &current, false);
        let after = plan.audited(HOOKS, &next, true);
        assert_eq!(before["WebHooks"][0]["AuthorizationSecret"], "(secret)");
        assert_eq!(after["WebHooks"][0]["AuthorizationSecret"], "(changed)");
        assert_eq!(after["WebHooks"][1]["AuthorizationSecret"], "");
    }
}
