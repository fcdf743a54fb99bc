//! Assembles the document from the registered operations.

use serde_json::{json, Map, Value};

use super::describe::{Access, OpDoc};
use super::router::Operation;
use super::schemas::{rename_refs, Schemas};

/// The document of the portal's whole API.
pub fn document() -> Value {
    static DOCUMENT: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    DOCUMENT
        .get_or_init(|| build(crate::routes::router().operations()))
        .clone()
}

/// Who may call an operation, as read from its handler's extractors.
pub fn operation_access(op: &Operation) -> Access {
    let mut schemas = Schemas::new();
    describe(op, &mut schemas).access
}

fn describe<'a>(op: &Operation, schemas: &'a mut Schemas) -> OpDoc<'a> {
    let mut doc = OpDoc {
        schemas,
        path: op.path,
        access: Access::Anyone,
        parameters: Vec::new(),
        request_body: None,
        responses: Map::new(),
    };
    (op.describe)(&mut doc);
    doc
}

fn who(access: Access) -> String {
    let names = |roles: &[wasm_core::model::Role]| {
        roles
            .iter()
            .map(|r| r.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match access {
        Access::Anyone => "anyone".to_owned(),
        Access::Roles(r) => names(r),
        Access::SetupOr(r) => format!(
            "anyone while the portal is not configured, then {}",
            names(r)
        ),
    }
}

fn build(ops: &[Operation]) -> Value {
    let mut schemas = Schemas::new();
    let mut described = Vec::new();
    for op in ops {
        let d = describe(op, &mut schemas);
        described.push((*op, d.access, d.parameters, d.request_body, d.responses));
    }
    let (components, renamed) = schemas.finish();
    let mut paths = Map::new();
    for (op, access, mut parameters, mut request_body, responses) in described {
        // Requests were described with the request-side schemas, which may have been renamed.
        parameters.iter_mut().for_each(|p| rename_refs(p, &renamed));
        if let Some(body) = &mut request_body {
            rename_refs(body, &renamed);
        }
        let method = op.method.to_lowercase();
        let mut entry = json!({
            "operationId": format!("{method}{}", op.path.replace(['/', '{', '}', '-', '.'], "_")),
            "summary": op.summary,
            "description": format!("Who may call: {}.", who(access)),
            "x-roles": access.roles().iter().map(|r| r.as_str()).collect::<Vec<_>>(),
            "responses": responses,
        });
        if !parameters.is_empty() {
            entry["parameters"] = Value::Array(parameters);
        }
        if let Some(body) = request_body {
            entry["requestBody"] = body;
        }
        match access {
            Access::Anyone => {}
            Access::Roles(_) => entry["security"] = json!([{"session": []}]),
            Access::SetupOr(_) => {
                entry["x-open-until-configured"] = json!(true);
                entry["security"] = json!([{}, {"session": []}]);
            }
        }
        paths.entry(op.path.to_owned()).or_insert_with(|| json!({}))[method] = entry;
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Imaging patient portal API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Generated from the API's router and the wasm-core wire types. Unsafe methods need header X-CSRF-Token equal to the portal_csrf cookie."
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "portal_session"}}
        }
    })
}
