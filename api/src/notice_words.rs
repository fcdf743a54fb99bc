//! The words inside notice token values (issue 21), in the patient's language like the
//! template around them: `{AppointmentDate}` (the patient's appointment format, spec 01 §2.1,
//! its weekday and month named by the `Date_` labels through wasm-core's one rule) and
//! `{LinkExpiry}` (the `Notice_` labels). The clinic's edits of those labels count.

use wasm_core::dates::{format_appointment_long, iso_utc_ms, localize_names, DatePlacement};

use crate::clinic_labels::ClinicLabels;
use crate::db::Db;
use crate::error::AppResult;

/// The labels notice values are made of, read once per notice or engine pass.
#[derive(Debug, Default, Clone)]
pub struct NoticeWords {
    labels: ClinicLabels,
}

impl NoticeWords {
    pub async fn load(db: &Db) -> AppResult<NoticeWords> {
        Ok(NoticeWords {
            labels: ClinicLabels::load(db, &["Date_", "Notice_"]).await?,
        })
    }

    /// `{AppointmentDate}`: weekday, date and time in the clinic's zone ('Wednesday, March 4,
    /// 2026 12:00 PM'; the date alone for a whole-day appointment), the names in `language`.
    /// No appointment: "(date to be confirmed)".
    pub fn appointment_date(
        &self,
        starts_at: Option<i64>,
        offset_minutes: i32,
        language: &str,
    ) -> String {
        match starts_at {
            Some(ms) => self.date_names(
                &format_appointment_long(&iso_utc_ms(ms), false, offset_minutes, ""),
                language,
            ),
            None => self.labels.text("Notice_NoAppointment", language),
        }
    }

    /// A formatted date's month and weekday names in `language`, as a token inside the notice's
    /// sentence (the labels' own case).
    pub fn date_names(&self, formatted: &str, language: &str) -> String {
        localize_names(formatted, DatePlacement::InSentence, |key| {
            Some(self.labels.text(key, language))
        })
    }

    /// A link's validity ('2 days', '1 hour'): the largest whole unit.
    pub fn duration(&self, seconds: i64, language: &str) -> String {
        let (n, unit) = match seconds {
            s if s % 86_400 == 0 => (s / 86_400, "Day"),
            s if s % 3_600 == 0 => (s / 3_600, "Hour"),
            s if s % 60 == 0 => (s / 60, "Minute"),
            s => (s, "Second"),
        };
        if n == 1 {
            self.labels
                .text(&format!("Notice_Duration_{unit}_One"), language)
        } else {
            self.labels.fill(
                &format!("Notice_Duration_{unit}"),
                language,
                &[("n", &n.to_string())],
            )
        }
    }

    /// `{LinkExpiry}` of the account invitation: used once, within `seconds` (0: no limit).
    pub fn link_once(&self, seconds: i64, language: &str) -> String {
        if seconds > 0 {
            self.labels.fill(
                "Notice_LinkOnceWithin",
                language,
                &[("duration", &self.duration(seconds, language))],
            )
        } else {
            self.labels.text("Notice_LinkOnce", language)
        }
    }

    /// `{LinkExpiry}` of the change-password email: expires in `seconds` (0: never, no text).
    pub fn link_expires(&self, seconds: i64, language: &str) -> String {
        if seconds > 0 {
            self.labels.fill(
                "Notice_LinkExpiresIn",
                language,
                &[("duration", &self.duration(seconds, language))],
            )
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Wednesday 2026-03-04 17:00Z; 12:00 PM at -300.
    const T: i64 = 1_772_643_600_000;

    #[test]
    fn values_in_the_patients_language() {
        let w = NoticeWords::default();
        assert_eq!(
            w.appointment_date(Some(T), -300, "en"),
            "Wednesday, March 4, 2026 12:00 PM"
        );
        assert_eq!(
            w.appointment_date(Some(T), -300, "es"),
            "miércoles, marzo 4, 2026 12:00 PM"
        );
        assert_eq!(
            w.appointment_date(Some(T), -300, "vietnamese"),
            "Thứ Tư, tháng 3 4, 2026 12:00 PM"
        );
        assert_eq!(w.appointment_date(None, 0, "es"), "(fecha por confirmar)");
        assert_eq!(
            w.link_once(172_800, "es"),
            "El enlace puede usarse una sola vez, dentro de 2 días."
        );
        assert_eq!(w.link_once(0, "en"), "The link can be used once.");
        assert_eq!(w.link_expires(3_600, "en"), "The link expires in 1 hour.");
        assert_eq!(
            w.link_expires(5_400, "vi"),
            "Liên kết sẽ hết hạn sau 90 phút."
        );
        assert_eq!(w.link_expires(0, "vi"), "");
        assert_eq!(w.duration(45, "zh"), "45秒");
    }
}
