//! Survey statuses and the History Portal status lookup (spec 01 §3 "Survey statuses",
//! "Status lookup item"; GET /api/historyPortal/statusesLookup).

use crate::wire;

/// The seven survey statuses; the key is what the database stores and rows carry as StatusKey.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub enum SurveyStatus {
    Assigned,
    IntermediateSave,
    Completed,
    Reviewed,
    Expired,
    PartiallyCompleteExpired,
    IntermediateSaveExpired,
}

impl SurveyStatus {
    pub const ALL: [SurveyStatus; 7] = [
        SurveyStatus::Assigned,
        SurveyStatus::IntermediateSave,
        SurveyStatus::Completed,
        SurveyStatus::Reviewed,
        SurveyStatus::Expired,
        SurveyStatus::PartiallyCompleteExpired,
        SurveyStatus::IntermediateSaveExpired,
    ];

    pub fn key(self) -> &'static str {
        match self {
            SurveyStatus::Assigned => "Assigned",
            SurveyStatus::IntermediateSave => "IntermediateSave",
            SurveyStatus::Completed => "Completed",
            SurveyStatus::Reviewed => "Reviewed",
            SurveyStatus::Expired => "Expired",
            SurveyStatus::PartiallyCompleteExpired => "PartiallyCompleteExpired",
            SurveyStatus::IntermediateSaveExpired => "IntermediateSaveExpired",
        }
    }

    /// The text shown in lists and the status filter.
    pub fn label(self) -> &'static str {
        match self {
            SurveyStatus::Assigned => "Assigned",
            SurveyStatus::IntermediateSave => "In Progress",
            SurveyStatus::Completed => "Completed",
            SurveyStatus::Reviewed => "Finalized by Admin",
            SurveyStatus::Expired => "Expired",
            SurveyStatus::PartiallyCompleteExpired => "Partially Complete-Expired",
            SurveyStatus::IntermediateSaveExpired => "In Progress-Expired",
        }
    }

    /// Statuses listed on the History Portal's Completed tab ("Completed or Expired", spec 01
    /// §2.6): the survey is finished one way or another.
    pub fn is_complete_status(self) -> bool {
        !matches!(
            self,
            SurveyStatus::Assigned | SurveyStatus::IntermediateSave
        )
    }

    /// One of the three expired statuses (the survey can no longer be started).
    pub fn is_expired(self) -> bool {
        matches!(
            self,
            SurveyStatus::Expired
                | SurveyStatus::PartiallyCompleteExpired
                | SurveyStatus::IntermediateSaveExpired
        )
    }

    /// The patient finished the survey (row flag IsCompleted).
    pub fn is_completed(self) -> bool {
        matches!(self, SurveyStatus::Completed | SurveyStatus::Reviewed)
    }

    pub fn parse(key: &str) -> Option<SurveyStatus> {
        SurveyStatus::ALL
            .into_iter()
            .find(|s| s.key().eq_ignore_ascii_case(key))
    }

    pub fn lookup_item(self) -> StatusLookupItem {
        StatusLookupItem {
            key: self.key().to_owned(),
            label: self.label().to_owned(),
            order: SurveyStatus::ALL
                .iter()
                .position(|s| *s == self)
                .unwrap_or(0) as u32
                + 1,
            is_complete_status: self.is_complete_status(),
        }
    }
}

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct StatusLookupItem {
        pub key: String,
        pub label: String,
        pub order: u32,
        pub is_complete_status: bool,
    }
}

/// The lookup list in display order.
pub fn status_lookup() -> Vec<StatusLookupItem> {
    SurveyStatus::ALL
        .into_iter()
        .map(SurveyStatus::lookup_item)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_has_the_spec_labels() {
        let items = status_lookup();
        assert_eq!(items.len(), 7);
        let reviewed = items.iter().find(|i| i.key == "Reviewed").unwrap();
        assert_eq!(reviewed.label, "Finalized by Admin");
        let pce = items
            .iter()
            .find(|i| i.key == "PartiallyCompleteExpired")
            .unwrap();
        assert_eq!(pce.label, "Partially Complete-Expired");
        assert_eq!(items[0].order, 1);
        assert!(SurveyStatus::parse("completed").is_some_and(|s| s.is_completed()));
    }
}
