//! How a handler's signature becomes an operation: each extractor says what it asks of the
//! request (who may call, the body, path and query parameters) and the answer type says what comes
//! back. A handler whose argument or answer has no description does not compile into the router,
//! so nothing reaches the document by hand.

use std::future::Future;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{Html, Redirect};
use axum::Json;
use schemars::JsonSchema;
use serde_json::{json, Map, Value};
use wasm_core::model::Role;

use super::schemas::Schemas;
use crate::auth::roles::{RoleSet, SignedIn};
use crate::auth::{CurrentUser, MaybeUser, RequireRole, SetupOr};
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError};

/// Who may call an operation, as its extractor enforces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Anyone,
    Roles(&'static [Role]),
    /// Anyone while the portal is not configured (first-run setup), these roles afterwards.
    SetupOr(&'static [Role]),
}

impl Access {
    /// The roles allowed once the portal is configured (empty: anyone).
    pub fn roles(self) -> &'static [Role] {
        match self {
            Access::Anyone => &[],
            Access::Roles(r) | Access::SetupOr(r) => r,
        }
    }
}

/// One operation being described.
pub struct OpDoc<'a> {
    pub(super) schemas: &'a mut Schemas,
    pub(super) path: &'static str,
    pub(super) access: Access,
    pub(super) parameters: Vec<Value>,
    pub(super) request_body: Option<Value>,
    pub(super) responses: Map<String, Value>,
}

impl OpDoc<'_> {
    fn body(&mut self, content: Value) {
        self.request_body = Some(json!({"required": true, "content": content}));
    }

    fn response(&mut self, status: &str, response: Value) {
        self.responses.insert(status.to_owned(), response);
    }

    /// Path parameters in the order of the template's `{names}`, typed from the extractor's T: a
    /// struct by field name, a tuple by position, a single value for a single name.
    fn path_params<T: JsonSchema>(&mut self) {
        let schema = self.schemas.input_inline::<T>();
        let names: Vec<&str> = self
            .path
            .split('/')
            .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .collect();
        for (i, name) in names.iter().enumerate() {
            let of = if let Some(p) = schema.get("properties").and_then(|p| p.get(*name)) {
                p.clone()
            } else if let Some(items) = schema.get("prefixItems").and_then(|p| p.get(i)) {
                items.clone()
            } else {
                schema.clone()
            };
            self.parameters.push(
                json!({"name": name, "in": "path", "required": true, "schema": strip_meta(of)}),
            );
        }
    }

    /// Query parameters: the fields of the extractor's struct.
    fn query_params<T: JsonSchema>(&mut self) {
        let schema = self.schemas.input_inline::<T>();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (name, of) in props {
                self.parameters.push(json!({
                    "name": name,
                    "in": "query",
                    "required": required.contains(&name.as_str()),
                    "schema": strip_meta(of.clone()),
                }));
            }
        }
    }

    pub(super) fn json_response<T: JsonSchema>(&mut self, status: &str) {
        let schema = self.schemas.output::<T>();
        self.response(
            status,
            json!({"description": "OK", "content": {"application/json": {"schema": schema}}}),
        );
    }
}

/// Parameter schemas stand alone: no `$schema` or title of their own.
fn strip_meta(mut schema: Value) -> Value {
    if let Some(o) = schema.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
    }
    schema
}

/// What an extractor asks of the request.
pub trait DescribeArg {
    fn describe(_op: &mut OpDoc) {}
}

/// What an answer sends back.
pub trait DescribeAnswer {
    fn describe(op: &mut OpDoc);
}

/// A handler: its arguments' descriptions, then its answer's. `T` is axum's own marker for the
/// handler's shape, so this is implemented for exactly the functions axum can route.
pub trait DescribeHandler<T> {
    fn describe(op: &mut OpDoc);
}

impl<F, Fut, Res> DescribeHandler<((),)> for F
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Res>,
    Res: DescribeAnswer,
{
    fn describe(op: &mut OpDoc) {
        Res::describe(op);
    }
}

macro_rules! describe_handler {
    ($($ty:ident),*) => {
        impl<F, Fut, Res, M, $($ty,)*> DescribeHandler<(M, $($ty,)*)> for F
        where
            F: FnOnce($($ty,)*) -> Fut,
            Fut: Future<Output = Res>,
            Res: DescribeAnswer,
            $($ty: DescribeArg,)*
        {
            fn describe(op: &mut OpDoc) {
                $($ty::describe(op);)*
                Res::describe(op);
            }
        }
    };
}
describe_handler!(T1);
describe_handler!(T1, T2);
describe_handler!(T1, T2, T3);
describe_handler!(T1, T2, T3, T4);
describe_handler!(T1, T2, T3, T4, T5);
describe_handler!(T1, T2, T3, T4, T5, T6);
describe_handler!(T1, T2, T3, T4, T5, T6, T7);
describe_handler!(T1, T2, T3, T4, T5, T6, T7, T8);

// Arguments that ask nothing the document can say (state, headers, the client's address) or
// that admit anyone.
impl<S> DescribeArg for State<S> {}
impl DescribeArg for HeaderMap {}
impl DescribeArg for ClientAddr {}
impl DescribeArg for MaybeUser {}

impl DescribeArg for CurrentUser {
    fn describe(op: &mut OpDoc) {
        op.access = Access::Roles(SignedIn::ROLES);
    }
}

impl<R: RoleSet> DescribeArg for RequireRole<R> {
    fn describe(op: &mut OpDoc) {
        op.access = Access::Roles(R::ROLES);
    }
}

impl<R: RoleSet> DescribeArg for SetupOr<R> {
    fn describe(op: &mut OpDoc) {
        op.access = Access::SetupOr(R::ROLES);
    }
}

impl<T: JsonSchema> DescribeArg for ApiJson<T> {
    fn describe(op: &mut OpDoc) {
        let schema = op.schemas.input::<T>();
        op.body(json!({"application/json": {"schema": schema}}));
    }
}

impl<T: JsonSchema> DescribeArg for ApiPath<T> {
    fn describe(op: &mut OpDoc) {
        op.path_params::<T>();
    }
}

impl<T: JsonSchema> DescribeArg for ApiQuery<T> {
    fn describe(op: &mut OpDoc) {
        op.query_params::<T>();
    }
}

/// A form post (the SAML HTTP-POST binding): its fields.
impl<T: JsonSchema> DescribeArg for axum::Form<T> {
    fn describe(op: &mut OpDoc) {
        let schema = op.schemas.input::<T>();
        op.body(json!({"application/x-www-form-urlencoded": {"schema": schema}}));
    }
}

/// A raw body (uploaded files): any bytes.
impl DescribeArg for Bytes {
    fn describe(op: &mut OpDoc) {
        op.body(json!({"application/octet-stream": {"schema": {}}}));
    }
}

/// An upload form (spec 04 "POST (multipart)"): the file part and the form's text fields; the
/// raw-body variant takes the fields as the query.
impl<F: crate::upload_form::UploadFields, const MAX: usize> DescribeArg
    for crate::upload_form::Upload<F, MAX>
{
    fn describe(op: &mut OpDoc) {
        let mut schema = op.schemas.input_inline::<F>();
        if let Some(obj) = schema.as_object_mut() {
            let props = obj.entry("properties").or_insert_with(|| json!({}));
            if let Some(props) = props.as_object_mut() {
                props.insert(
                    crate::upload_form::FILE_PART.to_owned(),
                    json!({"type": "string", "format": "binary"}),
                );
            }
            let required = obj.entry("required").or_insert_with(|| json!([]));
            if let Some(required) = required.as_array_mut() {
                required.push(json!(crate::upload_form::FILE_PART));
            }
        }
        op.query_params::<F>();
        op.body(json!({
            "multipart/form-data": {"schema": strip_meta(schema)},
            "application/octet-stream": {"schema": {}},
        }));
    }
}

/// An extractor whose rejection the handler handles itself asks the same of the request.
impl<T: DescribeArg, E> DescribeArg for Result<T, E> {
    fn describe(op: &mut OpDoc) {
        T::describe(op);
    }
}

impl<T: JsonSchema> DescribeAnswer for Json<T> {
    fn describe(op: &mut OpDoc) {
        op.json_response::<T>("200");
    }
}

/// Every refusal answers the API error shape (spec 01 §8), whatever its status.
impl<T: DescribeAnswer> DescribeAnswer for Result<T, AppError> {
    fn describe(op: &mut OpDoc) {
        T::describe(op);
        let error = op.schemas.output::<wasm_core::model::ApiError>();
        op.response(
            "default",
            json!({"description": "Refused or failed (spec 01 §8)",
                   "content": {"application/json": {"schema": error}}}),
        );
    }
}

impl DescribeAnswer for () {
    fn describe(op: &mut OpDoc) {
        op.response("200", json!({"description": "Done; no body"}));
    }
}

impl DescribeAnswer for Html<String> {
    fn describe(op: &mut OpDoc) {
        op.response(
            "200",
            json!({"description": "An HTML page",
                   "content": {"text/html": {"schema": {"type": "string"}}}}),
        );
    }
}

impl DescribeAnswer for Redirect {
    fn describe(op: &mut OpDoc) {
        op.response(
            "303",
            json!({"description": "See Other: the address is in Location",
                   "headers": {"Location": {"required": true, "schema": {"type": "string"}}}}),
        );
    }
}

/// Answers that are not a JSON body describe themselves (`crate::answers`).
pub(crate) fn binary(op: &mut OpDoc, content_types: &[&str], description: &str) {
    let content: Map<String, Value> = content_types
        .iter()
        .map(|t| ((*t).to_owned(), json!({"schema": {}})))
        .collect();
    op.response(
        "200",
        json!({"description": description, "content": content}),
    );
}

/// A JSON answer that also sets a header (a session cookie, an ETag).
pub(crate) fn json_with_header<T: JsonSchema>(op: &mut OpDoc, header: &str, description: &str) {
    op.json_response::<T>("200");
    if let Some(r) = op.responses.get_mut("200") {
        r["headers"] = json!({header: {"description": description, "schema": {"type": "string"}}});
    }
}
