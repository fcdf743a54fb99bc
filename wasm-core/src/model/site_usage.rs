//! Site Usage Report (spec 03 §2 "Site Usage Report", §3 "Event types", "Dashboard request",
//! "Dashboard response", §7 "Site usage", §9 "Site usage dates").

use crate::wire;

wire! {
    /// POST /api/event/getEventsForDashboard. `startDate` and `endDate` are ISO instants (the
    /// range is start <= time < end); `type` the selected card (0 visits, 13 opened documents);
    /// `offsetMinutes` the viewer's zone (minutes east of UTC) in which days and hours are counted.
    #[serde(rename_all = "camelCase")]
    pub struct DashboardRequest {
        pub start_date: String,
        pub end_date: String,
        #[serde(default, rename = "type")]
        pub kind: i64,
        #[serde(default)]
        pub offset_minutes: i32,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct UsageChart {
        pub labels: Vec<String>,
        pub data: Vec<i64>,
    }

    /// One day of the per-day table. `Day` is the local date (YYYY-MM-DD).
    #[serde(rename_all = "PascalCase")]
    pub struct UsageDay {
        pub day: String,
        pub count: i64,
    }

    /// One card's figures: this range against the range of the same length just before it.
    #[serde(rename_all = "PascalCase")]
    pub struct UsageSummary {
        pub total: i64,
        /// Change against the previous range in percent (0 when the previous range had none).
        pub percentage: i64,
        /// Up, Down or None.
        pub trend: String,
        /// The busiest hour of the day ("10:00 AM - 11:00 AM"), empty when there were no events.
        pub peak_hour: String,
        /// Events in that hour across the range, and the trend against the previous range's peak.
        pub peak_count: i64,
        pub peak_trend: String,
        pub chart: UsageChart,
        pub details: Vec<UsageDay>,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct DashboardResponse {
        pub visit: UsageSummary,
        pub open_document: UsageSummary,
    }

    /// GET /api/Event/GetEventsForDatatable: the table state plus the day (`startDate`, and
    /// `endDate` the next day, ISO instants) and the event `type`.
    #[serde(rename_all = "camelCase")]
    pub struct UsageEventsQuery {
        #[serde(default, rename = "PageIndex")]
        pub page_index: u32,
        #[serde(default = "usage_page_size", rename = "PageSize")]
        pub page_size: u32,
        #[serde(default, rename = "SortColumn")]
        pub sort_column: Option<String>,
        #[serde(default, rename = "SortDirection")]
        pub sort_direction: crate::model::SortDirection,
        #[serde(default, rename = "Search", deserialize_with = "crate::table::bounded_search")]
        pub search: String,
        pub start_date: String,
        pub end_date: String,
        #[serde(default, rename = "type")]
        pub kind: i64,
    }

    /// One event of the details table.
    #[serde(rename_all = "PascalCase")]
    pub struct UsageEventRow {
        pub id: i64,
        /// The event's instant (ISO, UTC): the Data Access column.
        pub data_access: String,
        pub ip_address: String,
        pub operating_system: String,
        pub browser: String,
        /// The letter or report opened (DocumentLoaded only).
        pub document_id: String,
    }

    /// The summary's address state and the request it makes (`usageRange`).
    #[serde(rename_all = "camelCase")]
    pub struct UsageRange {
        /// YYYY-MM-DD, the first and last day shown.
        pub date_from: String,
        pub date_to: String,
        /// ISO instants: date_from's start and date_to's end of day in the viewer's zone.
        pub start_date: String,
        pub end_date: String,
    }
}

fn usage_page_size() -> u32 {
    crate::model::DEFAULT_PAGE_SIZE
}

impl UsageEventsQuery {
    /// The table part, with the page size and offset rules every server-side table uses.
    pub fn table(&self) -> crate::model::TableRequest {
        crate::model::TableRequest {
            page_index: self.page_index,
            page_size: self.page_size,
            sort_column: self.sort_column.clone(),
            sort_direction: self.sort_direction,
            search: self.search.clone(),
        }
    }
}
