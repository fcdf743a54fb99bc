//! Queries per area, written once for both engines (see `db::on_db!`), returning domain types.

pub mod users;
pub mod surveys;
