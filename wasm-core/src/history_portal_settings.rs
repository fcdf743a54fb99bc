//! History Portal settings (spec 03 "History Portal Settings", §4 toggle rules, §5 ranges):
//! the master/channel toggle machines of the two notification blocks (the group's fields and
//! checks are `settings::history_portal`).

use crate::model::NotificationToggles;

/// Which notification block: history portal (survey) notices or 'I am Here' notices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    HistoryPortal,
    IamHere,
}

impl Block {
    pub fn parse(name: &str) -> Option<Block> {
        match name {
            "HistoryPortal" => Some(Block::HistoryPortal),
            "IamHere" => Some(Block::IamHere),
            _ => None,
        }
    }
}

/// One switch flipped (`field`: Master, Email or Sms) and what the block becomes:
/// - master on with neither channel: history portal -> email on, SMS off; I am Here -> both on;
/// - both channels off -> master off;
/// - master off -> both channels off.
pub fn toggle(
    block: Block,
    state: NotificationToggles,
    field: &str,
    on: bool,
) -> NotificationToggles {
    let mut next = state;
    match field {
        "Master" => {
            next.master = on;
            if on && !next.email && !next.sms {
                next.email = true;
                next.sms = block == Block::IamHere;
            }
            if !on {
                next.email = false;
                next.sms = false;
            }
        }
        "Email" | "Sms" => {
            if field == "Email" {
                next.email = on;
            } else {
                next.sms = on;
            }
            if !next.email && !next.sms {
                next.master = false;
            }
        }
        _ => {}
    }
    next
}
