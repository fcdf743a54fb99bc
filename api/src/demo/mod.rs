//! The demo clinic (`--demo`, README "Demo accounts"): loaded into an empty database in one transaction,
//! then the portal is marked configured. Deterministic: a fixed-seed generator picks names and
//! spreads; dates are relative to "now" so that today's, past and future appointments exist.

pub mod documents;
pub mod iam_here;
pub mod labels;
pub mod membership;
pub mod recovery;
pub mod registration;
pub mod survey_link;

use crate::auth::password;
use crate::db::{now_ms, Db};
use crate::error::{AppError, AppResult};
use crate::on_db;

/// Password of every demo account.
pub const DEMO_PASSWORD: &str = "Portal!2026";

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// xorshift64*: tiny, deterministic across platforms and crate versions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

pub struct DemoLocation {
    pub loc_num: &'static str,
    pub name: &'static str,
    pub address: &'static str,
    pub phone: &'static str,
}

pub const LOCATIONS: &[DemoLocation] = &[
    DemoLocation {
        loc_num: "101",
        name: "MAIN_CAMPUS",
        address: "100 Harbor Street, Springfield",
        phone: "555-0101",
    },
    DemoLocation {
        loc_num: "102",
        name: "NORTH_PAVILION",
        address: "2200 North Avenue, Springfield",
        phone: "555-0102",
    },
    DemoLocation {
        loc_num: "103",
        name: "WESTSIDE_IMAGING",
        address: "45 West Road, Shelbyville",
        phone: "555-0103",
    },
    DemoLocation {
        loc_num: "104",
        name: "RIVERSIDE_WOMENS_CENTER",
        address: "9 River Lane, Ogdenville",
        phone: "555-0104",
    },
];

mod surveys;

/// The demo's survey definitions: the real ones shipped in wasm-core/surveys/.
const SURVEYS: &[(&str, &str)] = surveys::SHIPPED;

const FIRST: &[&str] = &[
    "Olivia",
    "Emma",
    "Ava",
    "Sophia",
    "Isabella",
    "Mia",
    "Amelia",
    "Harper",
    "Evelyn",
    "Abigail",
    "Emily",
    "Elizabeth",
    "Sofia",
    "Avery",
    "Ella",
    "Scarlett",
    "Grace",
    "Chloe",
    "Victoria",
    "Riley",
    "Aria",
    "Lily",
    "Aisha",
    "Mei",
    "Priya",
    "Fatima",
    "Yuki",
    "Ana",
    "Lucia",
    "Hannah",
];
const LAST: &[&str] = &[
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Hernandez",
    "Lopez",
    "Gonzalez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Perez",
    "Thompson",
    "White",
    "Harris",
    "Sanchez",
    "Clark",
    "Ramirez",
    "Lewis",
    "Robinson",
    "Walker",
    "Nguyen",
    "Kim",
    "Patel",
    "Chen",
];
const STUDY_DESCS: &[&str] = &[
    "MAMMO SCREENING BILATERAL 3D",
    "MAMMO DIAGNOSTIC LEFT",
    "US BREAST BILATERAL",
    "MRI BREAST BILATERAL W WO CONTRAST",
    "STEREOTACTIC BIOPSY RIGHT",
];
const LANGUAGES: &[&str] = &["en", "en", "en", "es", "en", "fr"];
const STATUSES: &[&str] = &[
    "Assigned",
    "IntermediateSave",
    "Completed",
    "Reviewed",
    "Expired",
    "PartiallyCompleteExpired",
    "IntermediateSaveExpired",
];

struct Patient {
    mrn: String,
    first: String,
    last: String,
    dob: String,
    email: Option<String>,
    phone: String,
    language: &'static str,
}

struct User {
    username: &'static str,
    email: &'static str,
    first: &'static str,
    last: &'static str,
    role: &'static str,
    /// Index into the patients list.
    patient: Option<usize>,
}

const USERS: &[User] = &[
    User {
        username: "manager",
        email: "manager@demo-imaging.example",
        first: "Pat",
        last: "Morgan",
        role: "ProgramManager",
        patient: None,
    },
    User {
        username: "clientadmin",
        email: "clientadmin@demo-imaging.example",
        first: "Chris",
        last: "Lee",
        role: "ClientAdmin",
        patient: None,
    },
    User {
        username: "frontdesk",
        email: "frontdesk@demo-imaging.example",
        first: "Dana",
        last: "Smith",
        role: "FrontDesk",
        patient: None,
    },
    User {
        username: "jane.doe",
        email: "jane.doe@example.com",
        first: "Jane",
        last: "Doe",
        role: "Patient",
        patient: Some(0),
    },
    User {
        username: "maria.garcia",
        email: "maria.garcia@example.com",
        first: "Maria",
        last: "Garcia",
        role: "Patient",
        patient: Some(1),
    },
];

struct Appointment {
    patient: usize,
    location: usize,
    starts_at: i64,
    status: &'static str,
    arrival: Option<&'static str>,
    ready_count: i64,
}

struct Queue {
    appointment: usize,
    survey: usize,
    status: &'static str,
}

fn patients(rng: &mut Rng) -> Vec<Patient> {
    let mut list = vec![
        Patient {
            mrn: "100001".into(),
            first: "Jane".into(),
            last: "Doe".into(),
            dob: "1975-04-12".into(),
            email: Some("jane.doe@example.com".into()),
            phone: "555-0142".into(),
            language: "en",
        },
        Patient {
            mrn: "100002".into(),
            first: "Maria".into(),
            last: "Garcia".into(),
            dob: "1968-09-30".into(),
            email: Some("maria.garcia@example.com".into()),
            phone: "555-0177".into(),
            language: "es",
        },
    ];
    for i in 0..42u64 {
        let first = (*rng.pick(FIRST)).to_owned();
        let last = (*rng.pick(LAST)).to_owned();
        let year = 1945 + rng.below(50);
        let month = 1 + rng.below(12);
        let day = 1 + rng.below(28);
        let email = (i % 5 != 4).then(|| {
            format!(
                "{}.{}{}@example.com",
                first.to_lowercase(),
                last.to_lowercase(),
                i + 3
            )
        });
        list.push(Patient {
            mrn: format!("{}", 100_003 + i),
            first,
            last,
            dob: format!("{year:04}-{month:02}-{day:02}"),
            email,
            phone: format!("555-{:04}", 1000 + rng.below(9000)),
            language: LANGUAGES[rng.below(LANGUAGES.len() as u64) as usize],
        });
    }
    list
}

fn appointments(rng: &mut Rng, patient_count: usize, now: i64) -> Vec<Appointment> {
    // Round to the quarter hour so times read naturally.
    let base = now - now.rem_euclid(15 * MINUTE);
    let mut list = vec![
        // Jane: two future, one past (contract).
        Appointment {
            patient: 0,
            location: 0,
            starts_at: base + 3 * DAY + 2 * HOUR,
            status: "Scheduled",
            arrival: None,
            ready_count: 0,
        },
        Appointment {
            patient: 0,
            location: 1,
            starts_at: base + 24 * DAY - HOUR,
            status: "Rescheduled",
            arrival: None,
            ready_count: 0,
        },
        Appointment {
            patient: 0,
            location: 0,
            starts_at: base - 200 * DAY,
            status: "Scheduled",
            arrival: None,
            ready_count: 0,
        },
        // Maria: one today, one future.
        Appointment {
            patient: 1,
            location: 2,
            starts_at: base + HOUR,
            status: "Scheduled",
            arrival: None,
            ready_count: 0,
        },
        Appointment {
            patient: 1,
            location: 2,
            starts_at: base + 40 * DAY,
            status: "Scheduled",
            arrival: None,
            ready_count: 0,
        },
    ];
    for p in 2..patient_count {
        // Every third patient has an appointment today (within two hours of now), the rest
        // spread over the past three months and the next two.
        let count = 1 + rng.below(2) as usize;
        for k in 0..count {
            let today = p % 3 == 0 && k == 0;
            let starts_at = if today {
                // Kept inside today's (UTC) date, so the Today tab holds them even just after
                // midnight or just before it.
                let day_start = base - base.rem_euclid(DAY);
                (base - 2 * HOUR + (rng.below(16) as i64) * 15 * MINUTE)
                    .clamp(day_start, day_start + DAY - 15 * MINUTE)
            } else {
                // Clinic hours: 13:00-20:45 UTC (8 AM-3:45 PM US Eastern).
                let days = if rng.below(2) == 0 {
                    -(1 + rng.below(90) as i64)
                } else {
                    1 + rng.below(60) as i64
                };
                let day_start = base - base.rem_euclid(DAY);
                day_start + days * DAY + 13 * HOUR + (rng.below(32) as i64) * 15 * MINUTE
            };
            let arrival = if today {
                match rng.below(3) {
                    0 => Some("PatientArrived"),
                    1 => Some("ReadyForExam"),
                    _ => None,
                }
            } else {
                None
            };
            let status = match rng.below(10) {
                0 => "Canceled",
                1 => "Rescheduled",
                _ => "Scheduled",
            };
            list.push(Appointment {
                patient: p,
                location: rng.below(LOCATIONS.len() as u64) as usize,
                starts_at,
                status: if today { "Scheduled" } else { status },
                ready_count: i64::from(arrival == Some("ReadyForExam")),
                arrival,
            });
        }
    }
    list
}

fn queue(rng: &mut Rng, appointments: &[Appointment]) -> Vec<Queue> {
    appointments
        .iter()
        .enumerate()
        .map(|(i, _)| Queue {
            appointment: i,
            survey: rng.below(SURVEYS.len() as u64) as usize,
            // Cycle so that every status appears many times.
            status: STATUSES[i % STATUSES.len()],
        })
        .collect()
}

/// Unfinished surveys (Assigned, In Progress) of appointments before today move as many days
/// into the future: under any expiry setting a survey whose appointment passed days ago is
/// expired, and the start checks would refuse it (wasm-core survey::expiry). Today's stay.
fn keep_open_surveys_open(
    mut appointments: Vec<Appointment>,
    queue: &[Queue],
    now: i64,
) -> Vec<Appointment> {
    let today = now - now.rem_euclid(DAY);
    for q in queue
        .iter()
        .filter(|q| matches!(q.status, "Assigned" | "IntermediateSave"))
    {
        let a = &mut appointments[q.appointment];
        if a.starts_at < today {
            let days_back = (today - a.starts_at).div_euclid(DAY) + 1;
            a.starts_at += 2 * days_back * DAY;
        }
    }
    appointments
}

/// Loads the demo clinic when the database has no users yet; returns whether it did.
pub async fn load_if_empty(db: &Db) -> AppResult<bool> {
    let users: i64 =
        on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(pool).await)?;
    if users > 0 {
        tracing::info!("demo data skipped: the database already has users");
        return Ok(false);
    }
    // Hashed once for every account (argon2 is deliberately slow).
    let hash = password::hash(DEMO_PASSWORD.to_owned()).await?;
    let now = now_ms();
    let mut rng = Rng(0x5EED_2026_0000_0001);
    let patients = patients(&mut rng);
    let appointments = appointments(&mut rng, patients.len(), now);
    let queue = queue(&mut rng, &appointments);
    let appointments = keep_open_surveys_open(appointments, &queue, now);
    // The demo's own groups replace the defaults of the same name (stored at start-up already).
    let demo_settings = surveys::demo_settings();

    on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for (group, body) in &demo_settings {
            sqlx::query(
                "INSERT INTO settings (group_name, version, body, updated_at) VALUES ($1, 1, $2, $3)
                 ON CONFLICT (group_name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at",
            )
            .bind(*group)
            .bind(body.to_string())
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let mut location_ids = Vec::new();
        for l in LOCATIONS {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO locations (loc_num, name, address, phone, timezone)
                 VALUES ($1, $2, $3, $4, 'America/New_York') RETURNING id",
            )
            .bind(l.loc_num)
            .bind(l.name)
            .bind(l.address)
            .bind(l.phone)
            .fetch_one(&mut *tx)
            .await?;
            location_ids.push(id);
        }
        let mut survey_ids = Vec::new();
        let mut definitions = Vec::new();
        for (file, xml) in SURVEYS {
            let def = surveys::shipped(xml).map_err(|e| AppError::internal(format!("demo survey {file}: {e}")))?;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO survey_definitions (survey_id, name, xml, uploaded_at) VALUES ($1, $2, $3, $4) RETURNING id",
            )
            .bind(&def.id)
            .bind(surveys::name(&def))
            .bind(*xml)
            .bind(now - 365 * DAY)
            .fetch_one(&mut *tx)
            .await?;
            survey_ids.push(id);
            definitions.push(def);
        }
        let mut patient_ids = Vec::new();
        for p in &patients {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO patients (mrn, first_name, last_name, dob, email, phone, gender, language,
                                       unsubscribed, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, 'F', $7, FALSE, $8, $8) RETURNING id",
            )
            .bind(&p.mrn)
            .bind(&p.first)
            .bind(&p.last)
            .bind(&p.dob)
            .bind(&p.email)
            .bind(&p.phone)
            .bind(p.language)
            .bind(now - 400 * DAY)
            .fetch_one(&mut *tx)
            .await?;
            patient_ids.push(id);
        }
        for u in USERS {
            let patient_id = u.patient.map(|i| patient_ids[i]);
            let mrn = u.patient.map(|i| patients[i].mrn.clone());
            let loc_nums = if u.role == "Patient" { None } else { Some("101,102,103,104") };
            sqlx::query(
                "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active,
                                    patient_id, ssn, loc_nums, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, TRUE, $7, $8, $9, $10, $10)",
            )
            .bind(u.username)
            .bind(u.email)
            .bind(u.first)
            .bind(u.last)
            .bind(u.role)
            .bind(&hash)
            .bind(patient_id)
            .bind(mrn)
            .bind(loc_nums)
            .bind(now - 300 * DAY)
            .execute(&mut *tx)
            .await?;
        }
        let mut appointment_ids = Vec::new();
        let mut study_ids = Vec::new();
        for (i, a) in appointments.iter().enumerate() {
            let study_date = crate::fmt::iso_utc(a.starts_at)[..10].to_owned();
            let study_id: i64 = sqlx::query_scalar(
                "INSERT INTO studies (patient_id, location_id, study_date, description, accession)
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(patient_ids[a.patient])
            .bind(location_ids[a.location])
            .bind(study_date)
            .bind(STUDY_DESCS[i % STUDY_DESCS.len()])
            .bind(format!("ACC{:06}", 500_000 + i))
            .fetch_one(&mut *tx)
            .await?;
            study_ids.push(study_id);
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO appointments (patient_id, location_id, study_id, starts_at, status, arrival_status,
                                           iam_here_token, ready_for_exam_count)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
            )
            .bind(patient_ids[a.patient])
            .bind(location_ids[a.location])
            .bind(study_id)
            .bind(a.starts_at)
            .bind(a.status)
            .bind(a.arrival)
            .bind(format!("demo-iamhere-{:04}-{:016x}", i, rng.next()))
            .bind(a.ready_count)
            .fetch_one(&mut *tx)
            .await?;
            appointment_ids.push(id);
        }
        for (i, q) in queue.iter().enumerate() {
            let a = &appointments[q.appointment];
            let created = a.starts_at.min(now) - 7 * DAY;
            let started = (q.status != "Assigned" && q.status != "Expired").then_some(created + DAY);
            let completed = matches!(q.status, "Completed" | "Reviewed" | "PartiallyCompleteExpired")
                .then_some(created + DAY + 20 * MINUTE);
            let emailed = (i % 4 != 0).then_some(created + HOUR);
            let queue_id: i64 = sqlx::query_scalar(
                "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id,
                                           status, created_at, started_at, completed_at, updated_at,
                                           last_email_sent_at, revision)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1) RETURNING id",
            )
            .bind(patient_ids[a.patient])
            .bind(appointment_ids[q.appointment])
            .bind(study_ids[q.appointment])
            .bind(location_ids[a.location])
            .bind(survey_ids[q.survey])
            .bind(q.status)
            .bind(created)
            .bind(started)
            .bind(completed)
            .bind(completed.or(started).unwrap_or(created))
            .bind(emailed)
            .fetch_one(&mut *tx)
            .await?;
            if let Some(started) = started {
                // In-progress logs hold the first page; finished ones a whole valid history.
                let answers = surveys::demo_answers(&definitions[q.survey], i as u64, completed.is_some());
                let answers = serde_json::to_string(&answers).map_err(AppError::internal)?;
                sqlx::query(
                    "INSERT INTO survey_logs (survey_queue_id, answers, revision, created_at, updated_at, completed_at)
                     VALUES ($1, $2, 1, $3, $4, $5)",
                )
                .bind(queue_id)
                .bind(answers)
                .bind(started)
                .bind(completed.unwrap_or(started))
                .bind(completed)
                .execute(&mut *tx)
                .await?;
            }
        }
        // Letters: Jane and Maria get a mix of unread, read and acknowledged; others one each.
        for (i, a) in appointments.iter().enumerate().filter(|(_, a)| a.starts_at < now) {
            let sent = a.starts_at + 2 * DAY;
            let (read, acked) = match i % 3 {
                0 => (None, None),
                1 => (Some(sent + DAY), None),
                _ => (Some(sent + DAY), Some(sent + DAY + HOUR)),
            };
            let letter_type = if i % 2 == 0 { "Patient Result Letter" } else { "Screening Reminder" };
            let body = format!(
                "Dear {} {},\n\nThe results of your recent examination are available. \
                 Please contact us with any questions.\n\nDemo Breast Imaging",
                patients[a.patient].first, patients[a.patient].last
            );
            sqlx::query(
                "INSERT INTO letters (patient_id, study_id, access_token, letter_type, notify_type, body, sent_at,
                                      read_at, acked_at, is_ack_on_view, bi_rads)
                 VALUES ($1, $2, $3, $4, 'Email', $5, $6, $7, $8, $9, $10)",
            )
            .bind(patient_ids[a.patient])
            .bind(study_ids[i])
            .bind(format!("demo-letter-{:04}-{:016x}", i, rng.next()))
            .bind(letter_type)
            .bind(body)
            .bind(sent.min(now))
            .bind(read.filter(|r| *r < now))
            .bind(acked.filter(|r| *r < now))
            .bind(i % 5 == 0)
            .bind(["1", "2", "0"][i % 3])
            .execute(&mut *tx)
            .await?;
        }
        // Jane also has a fresh unread letter from last week.
        sqlx::query(
            "INSERT INTO letters (patient_id, study_id, access_token, letter_type, notify_type, body, sent_at,
                                  is_ack_on_view, bi_rads)
             VALUES ($1, $2, $3, 'Patient Result Letter', 'Email', $4, $5, FALSE, '1')",
        )
        .bind(patient_ids[0])
        .bind(study_ids[2])
        .bind("demo-letter-jane-latest")
        .bind("Dear Jane Doe,\n\nYour screening mammogram shows no evidence of cancer.\n\nDemo Breast Imaging")
        .bind(now - 7 * DAY)
        .execute(&mut *tx)
        .await?;
        for (key, en, es) in [
            ("MedicalHistory_SurveyExpired_Title", "Survey Expired", "Encuesta vencida"),
            ("Home_Welcome", "Welcome to the patient portal", "Bienvenida al portal del paciente"),
        ] {
            let id: i64 = sqlx::query_scalar("INSERT INTO label_keys (key, category) VALUES ($1, 'Portal') RETURNING id")
                .bind(key)
                .fetch_one(&mut *tx)
                .await?;
            for (lang, value) in [("en", en), ("es", es)] {
                sqlx::query("INSERT INTO label_values (label_key_id, language, value) VALUES ($1, $2, $3)")
                    .bind(id)
                    .bind(lang)
                    .bind(value)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        sqlx::query("UPDATE portal_config SET is_configured = TRUE, configured_at = $1 WHERE id = 1")
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok::<(), sqlx::Error>(())
    })
    .map_err(AppError::from)?;
    membership::load(db, &hash, now).await?;
    recovery::load(db, &hash, now).await?;
    documents::load(db).await?;
    iam_here::load(db).await?;
    labels::load(db).await?;
    registration::load(db, now).await?;
    survey_link::load(db, &hash, now).await?;
    tracing::info!(
        patients = patients.len(),
        appointments = appointments.len(),
        survey_queue = queue.len(),
        "demo clinic loaded"
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_is_deterministic_and_covers_the_contract() {
        let now = 1_795_356_309_000;
        let mut a = Rng(0x5EED_2026_0000_0001);
        let mut b = Rng(0x5EED_2026_0000_0001);
        let pa = patients(&mut a);
        let pb = patients(&mut b);
        assert_eq!(
            pa.iter().map(|p| &p.mrn).collect::<Vec<_>>(),
            pb.iter().map(|p| &p.mrn).collect::<Vec<_>>()
        );
        assert!(pa.len() >= 42);
        let appts = appointments(&mut a, pa.len(), now);
        let q = queue(&mut a, &appts);
        let appts = keep_open_surveys_open(appts, &q, now);
        assert!(q.len() >= 60, "{} rows", q.len());
        let today = now - now.rem_euclid(DAY);
        for r in q
            .iter()
            .filter(|r| matches!(r.status, "Assigned" | "IntermediateSave"))
        {
            assert!(
                appts[r.appointment].starts_at >= today,
                "an unfinished survey of a past day"
            );
        }
        assert!(
            q.iter().any(|r| r.status == "Assigned"
                && (appts[r.appointment].starts_at - now).abs() < 3 * HOUR),
            "a startable Today row"
        );
        for s in STATUSES {
            assert!(q.iter().any(|r| r.status == *s), "{s}");
        }
        let jane_future = appts
            .iter()
            .filter(|x| x.patient == 0 && x.starts_at > now)
            .count();
        assert!(jane_future >= 2);
        assert!(appts.iter().any(|x| (x.starts_at - now).abs() < 3 * HOUR));
        assert!(appts.iter().any(|x| x.starts_at < now - DAY));
    }
}
