//! Luminary One Settings (spec 01 §2.1 admin/luminary-one-settings): the page's three fields live
//! in the LuminaryOne, CoreMagview (LuminaryOneUrl) and SurveyGeneral
//! (LuminaryOnePatientDetailsSurveyId) groups. Its address test is core_settings'
//! GET /api/connectionTest/testLuminaryOneWebAddress (spec 03 §7).

use axum::extract::State;
use axum::Json;
use serde_json::{Map, Value};
use wasm_core::settings::luminary_one::{LuminaryOnePage, PAGE_FIELDS};

use crate::audit::Actor;
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::settings::engine::{self, Who, Write};
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/luminaryOne/settings",
            "The Luminary One Settings page: LuminaryOneUrl (CoreMagview), ExpectedLuminaryOneVersion (LuminaryOne), LuminaryOnePatientDetailsSurveyId (SurveyGeneral) and the three groups' Versions",
            get_page,
        )
        .put(
            "/api/luminaryOne/settings",
            "Saves the three fields into their groups in one transaction, each validated by its group's rules (400 with field messages, nothing stored), 409 when one of the groups was saved since its Version; audited per group",
            put_page,
        )
}

fn field_of(doc: &Map<String, Value>, field: &str) -> String {
    doc.get(field)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

async fn page(state: &AppState) -> AppResult<LuminaryOnePage> {
    let mut values = Vec::new();
    let mut versions = Vec::new();
    for (group, field) in PAGE_FIELDS {
        let def = engine::def(group)
            .ok_or_else(|| AppError::internal("a Luminary One group is not registered"))?;
        let (version, doc) = engine::read(&state.db, def).await?;
        values.push(field_of(&doc, field));
        versions.push(version);
    }
    Ok(LuminaryOnePage {
        luminary_one_url: values[0].clone(),
        expected_luminary_one_version: values[1].clone(),
        luminary_one_patient_details_survey_id: values[2].clone(),
        versions,
    })
}

async fn get_page(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<LuminaryOnePage>> {
    Ok(Json(page(&state).await?))
}

async fn put_page(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<LuminaryOnePage>,
) -> AppResult<Json<LuminaryOnePage>> {
    if body.versions.len() != PAGE_FIELDS.len() {
        return Err(AppError::BadRequest(
            "Versions must hold the three groups' versions.".to_owned(),
        ));
    }
    let values = [
        &body.luminary_one_url,
        &body.expected_luminary_one_version,
        &body.luminary_one_patient_details_survey_id,
    ];
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    let mut tx = state.db.begin().await?;
    let mut errors = wasm_core::ValidationErrors::new();
    for (((group, field), value), version) in PAGE_FIELDS.iter().zip(values).zip(&body.versions) {
        let def = engine::def(group)
            .ok_or_else(|| AppError::internal("a Luminary One group is not registered"))?;
        let stored = crate::store::settings::read_in(&mut tx, group).await?;
        if stored.as_ref().map_or(0, |(v, _)| *v) != *version {
            return Err(AppError::Conflict(engine::STALE_MESSAGE.to_owned()));
        }
        let mut fields = Map::new();
        fields.insert((*field).to_owned(), Value::String(value.clone()));
        // Only this field's messages refuse the write (the group's other fields are its own
        // form's to require).
        match engine::write_in(
            &mut tx,
            &state.secrets,
            who.clone(),
            def,
            Write::Fields,
            fields,
        )
        .await
        {
            Ok(_) => {}
            Err(AppError::Validation(e)) => {
                for (f, messages) in e.0 {
                    for m in messages {
                        errors.add(&f, m);
                    }
                }
            }
            Err(other) => return Err(other),
        }
    }
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    tx.commit().await?;
    crate::settings::invalidate(&state.db);
    Ok(Json(page(&state).await?))
}
