//! Query parameters several routes share (`?id=`, `?key=`, `?token=`, `?surveyQueueId=`).

use crate::wire;

wire! {
    /// `?id=`: one record (History Portal start check, impersonation check).
    pub struct IdQuery {
        #[serde(alias = "Id")]
        pub id: i64,
    }

    /// `?key=`: a password-reset or registration key (spec 02 §7.1, §7.2).
    pub struct KeyQuery {
        #[serde(default)]
        pub key: String,
    }

    /// `?token=`: an arrival (I Am Here) or emailed survey link token.
    pub struct TokenQuery {
        #[serde(default)]
        pub token: String,
    }

    /// `?surveyQueueId=`: one row of the survey queue.
    pub struct SurveyQueueIdQuery {
        #[serde(rename = "surveyQueueId", alias = "SurveyQueueId")]
        pub survey_queue_id: i64,
    }
}
