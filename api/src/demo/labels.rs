//! Demo translations of the patient-screen labels (issue 4 part 7), so the language switch has
//! something to show: Spanish for every key, a few in the other languages.

use crate::db::Db;
use crate::error::AppResult;
use crate::store::demo::labels;

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
    let mut tx = db.begin().await?;
    for (key, language, value) in TRANSLATIONS {
        let id = match labels::key_id(&mut tx, key).await? {
            Some(id) => id,
            None => labels::insert_key(&mut tx, key).await?,
        };
        labels::insert_value(&mut tx, id, language, value).await?;
    }
    tx.commit().await?;
    Ok(())
}
