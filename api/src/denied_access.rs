//! Refused accesses to patient objects (issue 15: "denied accesses too"), recorded in one place.
//!
//! A handler that refuses a patient object returns [`AppError::Denied`] with a [`Denial`] (who
//! asked, the patient, what object). The error's response carries the denial as an extension,
//! and [`middleware`], the one hook every API request passes, writes it as an audit row with
//! outcome Denied and the client's address. No handler writes denied rows itself, so a new
//! refusal cannot forget its row.

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use crate::audit::{self, Action, Actor, Target};
use crate::error::AppError;
use crate::AppState;

/// A refused access to a patient object.
#[derive(Debug, Clone)]
pub struct Denial {
    pub actor: Actor,
    pub action: Action,
    pub target: Target,
    /// The patient the object belongs to, when it exists.
    pub patient_id: Option<i64>,
    /// What was asked for (never a secret: no tokens, only a short prefix of one).
    pub details: Value,
}

impl Denial {
    /// `object` of `patient_id` refused to `actor` (action PatientAccessDenied).
    pub fn patient_object(
        actor: Actor,
        patient_id: Option<i64>,
        object: &str,
        object_id: impl ToString,
    ) -> Denial {
        Denial {
            actor,
            action: Action::PatientAccessDenied,
            target: Target::none(),
            patient_id,
            details: json!({"Object": object, "ObjectId": object_id.to_string()}),
        }
    }

    /// Answered 404, as if the object did not exist (so its existence is not revealed).
    pub fn not_found(self) -> AppError {
        AppError::Denied(Box::new(self))
    }
}

/// Writes the audit row of a response that carries a [`Denial`].
pub async fn middleware(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]));
    let client = state.trusted_proxies.client(peer, req.headers());
    let mut response = next.run(req).await;
    if let Some(denial) = response.extensions_mut().remove::<Denial>() {
        let written = audit::Entry::new(denial.actor, denial.action, denial.target)
            .values(None, Some(denial.details))
            .ip(Some(client.to_string()))
            .patient(denial.patient_id)
            .outcome(audit::OUTCOME_DENIED)
            .write_alone(&state.db)
            .await;
        if let Err(e) = written {
            // The refusal stands; an access that cannot be recorded is an error of the server.
            return e.into_response();
        }
    }
    response
}
