//! Demo translations of the patient-screen labels (issue 4 part 7), so the language switch has
//! something to show: Spanish for every key, a few in the other languages.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

const TRANSLATIONS: &[(&str, &str, &str)] = &[
    ("Home_PendingActions", "es", "Acciones pendientes"),
    ("Home_PendingSurvey", "es", "encuesta pendiente"),
    ("Home_UnreadLetter", "es", "carta no leída"),
    ("Home_NextAppointments", "es", "Próximas citas"),
    ("Documents_UnreadTab", "es", "Cartas no leídas"),
    ("Documents_AllTab", "es", "Todas las cartas"),
    ("Documents_OtherTab", "es", "Otros documentos"),
    ("MedicalHistory_AssignedTab", "es", "Asignadas"),
    ("MedicalHistory_ProgressTab", "es", "En curso"),
    ("MedicalHistory_CompletedTab", "es", "Completadas/Vencidas"),
    ("Home_PendingActions", "vi", "Việc cần làm"),
    ("Home_PendingActions", "tl", "Mga nakabinbing gawain"),
    ("Home_PendingActions", "zh", "待办事项"),
];

pub async fn load(db: &Db) -> AppResult<()> {
    for (key, language, value) in TRANSLATIONS {
        let existing: Option<i64> = on_db!(db, pool => sqlx::query_scalar("SELECT id FROM label_keys WHERE key = $1")
            .bind(*key)
            .fetch_optional(pool)
            .await)?;
        let id = match existing {
            Some(id) => id,
            None => {
                on_db!(db, pool => sqlx::query_scalar("INSERT INTO label_keys (key, category) VALUES ($1, 'Portal') RETURNING id")
                .bind(*key)
                .fetch_one(pool)
                .await)?
            }
        };
        on_db!(db, pool => sqlx::query(
            "INSERT INTO label_values (label_key_id, language, value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(*language)
        .bind(*value)
        .execute(pool)
        .await
        .map(|_| ()))?;
    }
    Ok(())
}
