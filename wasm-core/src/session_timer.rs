//! The session timer's rule (spec 01 §4, §9): session and warning times come in minutes and are
//! converted to seconds; the warning shows only when the warning time is greater than 0 and less
//! than the session time; at 0 seconds left the session has expired.

use crate::wire;

wire! {
    /// What the timer shows for a number of seconds left.
    #[serde(rename_all = "PascalCase")]
    pub struct SessionTimerView {
        /// Active, Warning or Expired.
        pub phase: String,
        pub seconds_left: u32,
        /// Seconds before expiry at which the warning starts (0: no warning).
        pub warning_seconds: u32,
        /// The time left as m:ss.
        pub countdown: String,
    }
}

pub fn session_timer_view(
    seconds_left: i64,
    timeout_minutes: u32,
    warn_minutes: u32,
) -> SessionTimerView {
    let session_seconds = u64::from(timeout_minutes) * 60;
    let warn_seconds = u64::from(warn_minutes) * 60;
    let warning_seconds = if warn_seconds > 0 && warn_seconds < session_seconds {
        warn_seconds
    } else {
        0
    };
    let left = seconds_left.clamp(0, i64::from(u32::MAX)) as u64;
    let phase = if left == 0 {
        "Expired"
    } else if warning_seconds > 0 && left <= warning_seconds {
        "Warning"
    } else {
        "Active"
    };
    SessionTimerView {
        phase: phase.to_owned(),
        seconds_left: left as u32,
        warning_seconds: warning_seconds.min(u64::from(u32::MAX)) as u32,
        countdown: format!("{}:{:02}", left / 60, left % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases() {
        assert_eq!(session_timer_view(600, 20, 2).phase, "Active");
        assert_eq!(session_timer_view(120, 20, 2).phase, "Warning");
        assert_eq!(session_timer_view(0, 20, 2).phase, "Expired");
        assert_eq!(session_timer_view(-5, 20, 2).seconds_left, 0);
        assert_eq!(
            session_timer_view(30, 20, 20).phase,
            "Active",
            "warning not less than the session"
        );
        assert_eq!(session_timer_view(65, 20, 2).countdown, "1:05");
    }
}
