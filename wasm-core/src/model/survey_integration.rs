//! Survey integrations (issue 17): the delivery log and the Maglink message types.

use crate::wire;

wire! {
    /// GET /api/surveySettings/integrationDeliveries: one delivery (a Maglink queue file, a
    /// webhook request or a survey action) of a survey event, newest first.
    #[serde(rename_all = "PascalCase")]
    pub struct IntegrationDelivery {
        pub id: i64,
        /// Maglink, Webhook or Action.
        pub kind: String,
        /// SurveyStart or SurveySubmit.
        pub event: String,
        /// The queue folder, the webhook's Url or the action's class name.
        pub target: String,
        /// Sent as the Idempotency-Key header of a webhook.
        pub idempotency_key: String,
        pub survey_queue_id: Option<i64>,
        pub test_mode: bool,
        /// Pending, Sending, Delivered, TestRecorded or Failed.
        pub status: String,
        pub attempts: i64,
        pub last_error: Option<String>,
        /// Unix milliseconds.
        pub created_at: i64,
        pub finished_at: Option<i64>,
        /// The last attempt's HTTP status code (webhooks).
        pub status_code: Option<i64>,
        /// The last attempt's detail: the file written, the answer, or in test mode what would
        /// have been sent.
        pub detail: Option<String>,
    }

    /// GET /api/surveySettings/integrationOptions: the choices of the integration forms.
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyIntegrationOptions {
        pub maglink_message_types: Vec<String>,
    }
}
