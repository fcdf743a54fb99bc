//! GET /api/openapi.json: an OpenAPI 3.1 document built from the route tables each area module
//! keeps beside its router (`ROUTES`). A unit test calls every listed route on the real router,
//! so the document cannot list a path the server does not have.

use serde_json::{json, Map, Value};
use wasm_core::model::Role;

use crate::auth::roles::{
    PatientOnly, ProgramManagers, RoleSet, SettingsAdmins, SignedIn, Staff, SurveyStarter,
    UserAdmins,
};

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Anyone,
    SignedIn,
    Staff,
    Patient,
    /// ProgramManager only.
    ProgramManager,
    /// Anyone while the portal is not configured (first-run setup), ProgramManager afterwards.
    SetupOrProgramManager,
    /// FrontDesk and ProgramManager: the kiosk's staff start (spec 01 §2.5).
    SurveyStarter,
    /// ClientAdmin and ProgramManager (the Users menu, spec 02 §6).
    UserAdmins,
    /// ClientAdmin and ProgramManager (logos, spec 02 §6).
    LogoEditors,
    /// ClientAdmin and ProgramManager (settings groups, spec 03 §6).
    SettingsAdmins,
}

impl Access {
    /// The roles, read from the one table of role sets (`auth::roles`) the extractors use.
    pub fn roles(self) -> &'static [Role] {
        match self {
            Access::Anyone => &[],
            Access::SignedIn => SignedIn::ROLES,
            Access::Staff => Staff::ROLES,
            Access::Patient => PatientOnly::ROLES,
            Access::SurveyStarter => SurveyStarter::ROLES,
            Access::ProgramManager | Access::SetupOrProgramManager => ProgramManagers::ROLES,
            Access::UserAdmins | Access::LogoEditors => UserAdmins::ROLES,
            Access::SettingsAdmins => SettingsAdmins::ROLES,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Access::Anyone => "anyone",
            Access::SignedIn => "signed in",
            Access::Staff => "staff",
            Access::Patient => "Patient",
            Access::SurveyStarter => "FrontDesk or ProgramManager",
            Access::ProgramManager => "ProgramManager",
            Access::SetupOrProgramManager => {
                "anyone while the portal is not configured, then ProgramManager"
            }
            Access::UserAdmins | Access::LogoEditors | Access::SettingsAdmins => {
                "ClientAdmin or ProgramManager"
            }
        }
    }
}

/// One documented route. Schemas are named after the wasm-core wire types.
#[derive(Debug, Clone, Copy)]
pub struct RouteDoc {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub access: Access,
    pub request: Option<&'static str>,
    pub response: &'static str,
}

pub fn all_routes() -> Vec<RouteDoc> {
    use crate::routes::*;
    [
        health::ROUTES,
        account::ROUTES,
        survey_queue::ROUTES,
        history_portal::ROUTES,
        version_info::ROUTES,
        settings_groups::ROUTES,
        notification_history::ROUTES,
        appointments::ROUTES,
        configuration::ROUTES,
        password::ROUTES,
        users::ROUTES,
        session_timer::ROUTES,
        documents::ROUTES,
        medical_history::ROUTES,
        home_content::ROUTES,
        iam_here::ROUTES,
        labels::ROUTES,
        embed::ROUTES,
        surveys::ROUTES,
        registration::ROUTES,
        recovery::ROUTES,
        survey_packages::ROUTES,
        survey_start::ROUTES,
        survey_create_patient::ROUTES,
        logo::ROUTES,
        ROUTES,
        survey_link::ROUTES,
    ]
    .into_iter()
    .flatten()
    .copied()
    .collect()
}

pub fn document() -> Value {
    let mut paths = Map::new();
    let mut schemas = Map::new();
    for route in all_routes() {
        let mut op = json!({
            "summary": route.summary,
            "operationId": format!("{}{}", route.method.to_lowercase(), route.path.replace(['/', '{', '}'], "_")),
            "x-roles": route.access.roles().iter().map(|r| r.as_str()).collect::<Vec<_>>(),
            "description": format!("Who may call: {}.", route.access.text()),
            "responses": {
                "200": {
                    "description": "OK",
                    "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{}", route.response)}}}
                },
                "default": {
                    "description": "Error (spec 01 §8)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
                }
            }
        });
        schemas.insert(
            route.response.to_owned(),
            json!({"type": "object", "description": "wasm-core wire type"}),
        );
        if let Some(req) = route.request {
            op["requestBody"] = json!({
                "required": true,
                "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{req}")}}}
            });
            schemas.insert(
                req.to_owned(),
                json!({"type": "object", "description": "wasm-core wire type"}),
            );
        }
        if route.access != Access::Anyone {
            op["security"] = json!([{"session": []}]);
        }
        let entry = paths
            .entry(route.path.to_owned())
            .or_insert_with(|| json!({}));
        entry[route.method.to_lowercase()] = op;
    }
    schemas.insert(
        "ApiError".to_owned(),
        json!({
            "type": "object",
            "required": ["Title", "Message", "ErrorId"],
            "properties": {
                "Title": {"type": "string"}, "Message": {"type": "string"}, "ErrorId": {"type": "string"},
                "StackTrace": {"type": "string"},
                "Errors": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
            }
        }),
    );
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Imaging patient portal API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Unsafe methods need header X-CSRF-Token equal to the portal_csrf cookie."
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "portal_session"}}
        }
    })
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;

    use axum::body::Body;
    use axum::extract::ConnectInfo;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    use super::*;

    #[test]
    fn document_lists_every_route_once() {
        let doc = document();
        let routes = all_routes();
        let mut seen = std::collections::BTreeSet::new();
        for r in &routes {
            assert!(
                seen.insert((r.method, r.path)),
                "{} {} listed twice",
                r.method,
                r.path
            );
            assert!(
                doc["paths"][r.path][r.method.to_lowercase()].is_object(),
                "{} {}",
                r.method,
                r.path
            );
        }
        assert_eq!(doc["openapi"], "3.1.0");
    }

    /// The document cannot drift from the router: every listed route answers with something
    /// other than the 404/405 of an unknown path or method.
    #[tokio::test]
    async fn every_documented_route_is_routed() {
        let dir = std::env::temp_dir().join(format!(
            "portal-api-openapi-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let config = crate::Config::new(
            "127.0.0.1:0",
            &format!("sqlite://{}/t.db", dir.display()),
            dir.join("web"),
        );
        let app = crate::app(crate::build(&config).await.unwrap());
        for r in all_routes() {
            let mut req = Request::builder()
                .method(r.method)
                .uri(r.path)
                .header("cookie", "portal_csrf=t")
                .header("x-csrf-token", "t")
                .header("content-type", "application/json")
                .body(Body::from("{}"))
                .unwrap();
            req.extensions_mut()
                .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 9))));
            let res = app.clone().oneshot(req).await.unwrap();
            assert!(
                !res.headers().contains_key(crate::web::UNROUTED)
                    && res.status() != StatusCode::METHOD_NOT_ALLOWED,
                "{} {} -> {}",
                r.method,
                r.path,
                res.status()
            );
        }
        // The check above can fail: a path no route matches carries the marker.
        let res = app
            .clone()
            .oneshot(
                Request::builder()
                    .uri("/api/no/such/route")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert!(res.headers().contains_key(crate::web::UNROUTED));
        std::fs::remove_dir_all(&dir).ok();
    }
}
