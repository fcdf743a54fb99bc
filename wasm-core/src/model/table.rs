//! The server-side table contract of every `.../datatable` endpoint (spec 01 §2.6, §7): the web
//! app sends the table state it keeps in the address, the API answers one page.

use crate::wire;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum SortDirection {
    #[default]
    Asc,
    Desc,
}

wire! {
    /// One page request. `PageIndex` counts from 0. `SortColumn` names a column of the response
    /// row; the API accepts only names on the endpoint's allow-list.
    #[serde(rename_all = "PascalCase")]
    pub struct TableRequest {
        #[serde(default)]
        pub page_index: u32,
        #[serde(default = "default_page_size")]
        pub page_size: u32,
        #[serde(default)]
        pub sort_column: Option<String>,
        #[serde(default)]
        pub sort_direction: SortDirection,
        /// At most `table::MAX_SEARCH_CHARS` characters; a longer one does not deserialize.
        #[serde(default, deserialize_with = "crate::table::bounded_search")]
        pub search: String,
    }
}

/// One page of rows. `TotalCount` counts every row the caller may see, `FilteredCount` those
/// that match the search and filters (the pager is built from it).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "PascalCase")]
pub struct TableResponse<T> {
    pub data: Vec<T>,
    pub total_count: u64,
    pub filtered_count: u64,
    pub page_index: u32,
    pub page_size: u32,
}

/// Page size of every list (spec 01 §9).
pub const DEFAULT_PAGE_SIZE: u32 = 10;
/// Page sizes a user may choose; anything else falls back to the default.
pub const PAGE_SIZES: [u32; 4] = [10, 25, 50, 100];

fn default_page_size() -> u32 {
    DEFAULT_PAGE_SIZE
}

impl Default for TableRequest {
    fn default() -> Self {
        TableRequest {
            page_index: 0,
            page_size: DEFAULT_PAGE_SIZE,
            sort_column: None,
            sort_direction: SortDirection::Asc,
            search: String::new(),
        }
    }
}

impl TableRequest {
    /// The page size clamped to the allowed sizes, so no request can ask for a huge page.
    pub fn safe_page_size(&self) -> u32 {
        if PAGE_SIZES.contains(&self.page_size) {
            self.page_size
        } else {
            DEFAULT_PAGE_SIZE
        }
    }

    /// Rows to skip; saturates so a hostile page index cannot overflow.
    pub fn offset(&self) -> u64 {
        u64::from(self.page_index).saturating_mul(u64::from(self.safe_page_size()))
    }
}
