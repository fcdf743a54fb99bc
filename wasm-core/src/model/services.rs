//! Services management (spec 03 §3 "Service action result", §4 "Service status", §7 "Services",
//! §8): the portal's background services, their actions and the messages the page shows.

use crate::wire;

/// Statuses of a service (spec 03 §3); with none the service counts as not installed (§4).
pub const STARTED: &str = "STARTED";
pub const RESTARTED: &str = "RESTARTED";
pub const STOPPED: &str = "STOPPED";

wire! {
    /// POST /api/serviceManagement/startService, /stopService, /restartService (spec 03 §7:
    /// body {serviceName}).
    #[serde(default, rename_all = "camelCase")]
    #[derive(Default)]
    pub struct ServiceRequest {
        pub service_name: String,
    }

    /// What an action did (spec 03 §3 "Service action result": Success, Status, Action,
    /// Message). `Status` is the service's status afterwards ('' when it is not installed);
    /// `Action` is the action done ('Started', 'Stopped' or 'Restarted'); `Message` is the toast
    /// on success or the error dialog's text on failure.
    #[serde(rename_all = "PascalCase")]
    pub struct ServiceActionResult {
        pub success: bool,
        pub status: String,
        pub action: String,
        pub message: String,
        /// Not installed: the page shows the message as a toast, not as an 'Action error'.
        pub not_installed: bool,
    }

    /// One service as GET /api/serviceManagement/services lists it. Instants are ISO (UTC).
    #[serde(rename_all = "PascalCase")]
    pub struct ServiceInfo {
        /// The name the actions take (`serviceName`).
        pub name: String,
        pub title: String,
        /// STARTED, RESTARTED or STOPPED; '' when not installed (no API instance may run it).
        pub status: String,
        /// Whether an API instance is running it now (a fresh heartbeat).
        pub running: bool,
        pub last_run: Option<String>,
        pub last_error: Option<String>,
        pub last_error_at: Option<String>,
        pub heartbeat: Option<String>,
        /// Failed or crashed passes since it was last started.
        pub failures: i64,
    }
}

/// A service action (spec 03 §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceAction {
    Start,
    Stop,
    Restart,
}

impl ServiceAction {
    /// The verb, as the buttons and the error dialog's title name it.
    pub fn verb(self) -> &'static str {
        match self {
            ServiceAction::Start => "Start",
            ServiceAction::Stop => "Stop",
            ServiceAction::Restart => "Restart",
        }
    }

    /// The action as the success toast names it ('{Service title} was {Action}!').
    pub fn done(self) -> &'static str {
        match self {
            ServiceAction::Start => "Started",
            ServiceAction::Stop => "Stopped",
            ServiceAction::Restart => "Restarted",
        }
    }

    /// The status a successful action leaves.
    pub fn status(self) -> &'static str {
        match self {
            ServiceAction::Start => STARTED,
            ServiceAction::Stop => STOPPED,
            ServiceAction::Restart => RESTARTED,
        }
    }

    /// The action of a verb ('Start', 'Stop', 'Restart'; also the done forms).
    pub fn parse(text: &str) -> Option<ServiceAction> {
        [
            ServiceAction::Start,
            ServiceAction::Stop,
            ServiceAction::Restart,
        ]
        .into_iter()
        .find(|a| text.eq_ignore_ascii_case(a.verb()) || text.eq_ignore_ascii_case(a.done()))
    }
}

/// spec 03 §8 "Service action success": '{Service title} was {Action}!'.
pub fn service_action_success(title: &str, action: ServiceAction) -> String {
    format!("{title} was {}!", action.done())
}

/// spec 03 §8 "Service not installed": '{Service title} is not installed.'.
pub fn service_not_installed(title: &str) -> String {
    format!("{title} is not installed.")
}

/// spec 03 §8 "Service action failure": the error dialog's title, 'Action error' with the action
/// named ('Start error', 'Stop error', 'Restart error').
pub fn service_action_error_title(action: ServiceAction) -> String {
    format!("{} error", action.verb())
}

/// Whether a status counts as installed (spec 03 §4: with no status, not installed).
pub fn service_installed(status: &str) -> bool {
    !status.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_texts() {
        assert_eq!(
            service_action_success("Email Service", ServiceAction::Stop),
            "Email Service was Stopped!"
        );
        assert_eq!(
            service_not_installed("Timer Service"),
            "Timer Service is not installed."
        );
        assert_eq!(
            service_action_error_title(ServiceAction::Restart),
            "Restart error"
        );
        assert_eq!(
            ServiceAction::parse("restarted"),
            Some(ServiceAction::Restart)
        );
        assert_eq!(ServiceAction::parse("pause"), None);
        assert!(!service_installed(""));
        assert!(service_installed(STOPPED));
    }
}
