//! The demo clinic (`--demo`, README "Demo accounts"): loaded into an empty database in one transaction,
//! then the portal is marked configured. Deterministic: a fixed-seed generator picks names and
//! spreads; dates are relative to "now" so that today's, past and future appointments exist.

pub mod documents;
pub mod iam_here;
pub mod membership;
pub mod recovery;
pub mod registration;
pub mod survey_link;

use crate::auth::password;
use crate::db::{now_ms, Db};
use crate::error::{AppError, AppResult};
use crate::store;
use crate::store::demo::surveys as store_surveys;
use crate::store::demo::{clinic, letters, people};

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
/// (Code, Description, AskSide) of the demo clinic's procedures.
const PROCEDURES: &[(&str, &str, bool)] = &[
    ("MAMSCR3D", "MAMMO SCREENING BILATERAL 3D", false),
    ("MAMDX", "MAMMO DIAGNOSTIC", true),
    ("USBR", "US BREAST", true),
    ("MRIBR", "MRI BREAST BILATERAL W WO CONTRAST", false),
    ("STBX", "STEREOTACTIC BIOPSY", true),
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
    // Appointments on other days fall in the clinic's day (issue 20): its hours are 13:00-20:45
    // UTC, 8 AM-3:45 PM US Eastern (the demo locations' zone), whenever the server started.
    let clinic_day = |days: i64, hour: i64| base - base.rem_euclid(DAY) + days * DAY + hour * HOUR;
    let mut list = vec![
        // Jane: two future, one past (contract).
        Appointment {
            patient: 0,
            location: 0,
            starts_at: clinic_day(3, 14),
            status: "Scheduled",
            arrival: None,
            ready_count: 0,
        },
        Appointment {
            patient: 0,
            location: 1,
            starts_at: clinic_day(24, 15) + 30 * MINUTE,
            status: "Rescheduled",
            arrival: None,
            ready_count: 0,
        },
        Appointment {
            patient: 0,
            location: 0,
            starts_at: clinic_day(-200, 16),
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
            starts_at: clinic_day(40, 17),
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
/// `clinic_utc_offset_minutes`: the clinic's zone (a re-released letter's two releases fall on
/// one clinic day).
pub async fn load_if_empty(db: &Db, clinic_utc_offset_minutes: i32) -> AppResult<bool> {
    if people::user_count(db).await? > 0 {
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

    let mut tx = db.begin().await?;
    for (group, body) in &demo_settings {
        store::demo::put_settings(&mut tx, group, &body.to_string(), now).await?;
    }
    let mut location_ids = Vec::new();
    for l in LOCATIONS {
        location_ids
            .push(clinic::insert_location(&mut tx, l.loc_num, l.name, l.address, l.phone).await?);
    }
    let mut survey_ids = Vec::new();
    let mut definitions = Vec::new();
    for (file, xml) in SURVEYS {
        let def = surveys::shipped(xml)
            .map_err(|e| AppError::internal(format!("demo survey {file}: {e}")))?;
        let id = store_surveys::insert_definition(
            &mut tx,
            &def.id,
            &surveys::name(&def),
            xml,
            now - 365 * DAY,
        )
        .await?;
        survey_ids.push(id);
        definitions.push(def);
    }
    let mut patient_ids = Vec::new();
    for p in &patients {
        let id = people::insert_patient(
            &mut tx,
            &people::NewPatient {
                mrn: &p.mrn,
                first_name: &p.first,
                last_name: &p.last,
                dob: &p.dob,
                email: p.email.as_deref(),
                phone: Some(&p.phone),
                gender: "F",
                language: p.language,
                created_at: now - 400 * DAY,
            },
        )
        .await?;
        patient_ids.push(id);
    }
    // Spec 04 §7 lookups: the procedures a study may be, and an alternate identifier (MRN2,
    // 'A' + MRN) for every patient, so a location can map its MRN column to it.
    for (code, description, ask_side) in PROCEDURES {
        crate::store::survey_general::insert_procedure(&mut tx, code, description, *ask_side)
            .await?;
    }
    for (p, id) in patients.iter().zip(&patient_ids) {
        crate::store::survey_general::insert_identifier(
            &mut tx,
            *id,
            "MRN2",
            &format!("A{}", p.mrn),
        )
        .await?;
    }
    for u in USERS {
        people::insert_user(
            &mut tx,
            &people::NewUser {
                username: u.username,
                email: u.email,
                first_name: u.first,
                last_name: u.last,
                role: u.role,
                password_hash: &hash,
                patient_id: u.patient.map(|i| patient_ids[i]),
                ssn: u.patient.map(|i| patients[i].mrn.as_str()),
                loc_nums: (u.role != "Patient").then_some("101,102,103,104"),
                is_demo: false,
                created_at: now - 300 * DAY,
            },
        )
        .await?;
    }
    let mut appointment_ids = Vec::new();
    let mut study_ids = Vec::new();
    for (i, a) in appointments.iter().enumerate() {
        let study_date = crate::fmt::iso_utc(a.starts_at)[..10].to_owned();
        let study_id = clinic::insert_study(
            &mut tx,
            patient_ids[a.patient],
            location_ids[a.location],
            &study_date,
            STUDY_DESCS[i % STUDY_DESCS.len()],
            &format!("ACC{:06}", 500_000 + i),
        )
        .await?;
        study_ids.push(study_id);
        let token = format!("demo-iamhere-{:04}-{:016x}", i, rng.next());
        let id = clinic::insert_appointment(
            &mut tx,
            &clinic::NewAppointment {
                patient_id: patient_ids[a.patient],
                location_id: location_ids[a.location],
                study_id: Some(study_id),
                starts_at: a.starts_at,
                status: a.status,
                arrival_status: a.arrival,
                iam_here_token: Some(&token),
                ready_for_exam_count: a.ready_count,
            },
        )
        .await?;
        appointment_ids.push(id);
    }
    for (i, q) in queue.iter().enumerate() {
        let a = &appointments[q.appointment];
        let created = a.starts_at.min(now) - 7 * DAY;
        let started = (q.status != "Assigned" && q.status != "Expired").then_some(created + DAY);
        let completed = matches!(
            q.status,
            "Completed" | "Reviewed" | "PartiallyCompleteExpired"
        )
        .then_some(created + DAY + 20 * MINUTE);
        let emailed = (i % 4 != 0).then_some(created + HOUR);
        let queue_id = store_surveys::insert_queue_row(
            &mut tx,
            &store_surveys::NewQueueRow {
                patient_id: patient_ids[a.patient],
                appointment_id: Some(appointment_ids[q.appointment]),
                study_id: Some(study_ids[q.appointment]),
                location_id: location_ids[a.location],
                survey_definition_id: survey_ids[q.survey],
                status: q.status,
                created_at: created,
                started_at: started,
                completed_at: completed,
                updated_at: completed.or(started).unwrap_or(created),
                last_email_sent_at: emailed,
            },
        )
        .await?;
        if let Some(started) = started {
            // In-progress logs hold the first page; finished ones a whole valid history.
            let answers =
                surveys::demo_answers(&definitions[q.survey], i as u64, completed.is_some());
            let answers = serde_json::to_string(&answers).map_err(AppError::internal)?;
            store_surveys::insert_log(
                &mut tx,
                queue_id,
                &answers,
                started,
                completed.unwrap_or(started),
                completed,
            )
            .await?;
        }
    }
    // Letters: Jane and Maria get a mix of unread, read and acknowledged; others one each.
    for (i, a) in appointments
        .iter()
        .enumerate()
        .filter(|(_, a)| a.starts_at < now)
    {
        let sent = a.starts_at + 2 * DAY;
        let (read, acked) = match i % 3 {
            0 => (None, None),
            1 => (Some(sent + DAY), None),
            _ => (Some(sent + DAY), Some(sent + DAY + HOUR)),
        };
        let letter_type = if i % 2 == 0 {
            "Patient Result Letter"
        } else {
            "Screening Reminder"
        };
        let body = format!(
            "Dear {} {},\n\nThe results of your recent examination are available. \
             Please contact us with any questions.\n\nDemo Breast Imaging",
            patients[a.patient].first, patients[a.patient].last
        );
        letters::insert_letter(
            &mut tx,
            &letters::NewLetter {
                patient_id: patient_ids[a.patient],
                study_id: Some(study_ids[i]),
                access_token: &format!("demo-letter-{:04}-{:016x}", i, rng.next()),
                letter_type,
                notify_type: "Email",
                body: &body,
                pdf: None,
                sent_at: sent.min(now),
                read_at: read.filter(|r| *r < now),
                acked_at: acked.filter(|r| *r < now),
                is_ack_on_view: i % 5 == 0,
                bi_rads: Some(["1", "2", "0"][i % 3]),
                release_seq: None,
            },
        )
        .await?;
    }
    // Jane also has a fresh unread letter from last week.
    letters::insert_letter(
        &mut tx,
        &letters::NewLetter {
            patient_id: patient_ids[0],
            study_id: Some(study_ids[2]),
            access_token: "demo-letter-jane-latest",
            letter_type: "Patient Result Letter",
            notify_type: "Email",
            body: "Dear Jane Doe,\n\nYour screening mammogram shows no evidence of cancer.\n\nDemo Breast Imaging",
            pdf: None,
            sent_at: now - 7 * DAY,
            read_at: None,
            acked_at: None,
            is_ack_on_view: false,
            bi_rads: Some("1"),
            release_seq: None,
        },
    )
    .await?;
    // Unconditionally: the demo loads into an empty database.
    store::setup::claim_configured(&mut tx, now, true).await?;
    tx.commit().await?;
    membership::load(db, &hash, now).await?;
    recovery::load(db, &hash, now).await?;
    documents::load(db, clinic_utc_offset_minutes).await?;
    iam_here::load(db).await?;
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

    /// Issue 20: whenever the server starts (here at 3 AM, noon and 11 PM UTC), appointments of
    /// other days fall in the clinic's day, 13:00-20:45 UTC (8 AM-3:45 PM US Eastern), not at night.
    #[test]
    fn appointments_of_other_days_fall_in_the_clinics_day() {
        let midnight = 1_795_305_600_000 - 1_795_305_600_000 % DAY;
        for start_hour in [3, 12, 23] {
            let now = midnight + start_hour * HOUR + 7 * MINUTE;
            let mut rng = Rng(0x5EED_2026_0000_0001);
            let people = patients(&mut rng);
            let appts = appointments(&mut rng, people.len(), now);
            let q = queue(&mut rng, &appts);
            let appts = keep_open_surveys_open(appts, &q, now);
            let today = now - now.rem_euclid(DAY);
            // Today's appointments stay near the start time on purpose (the Today list, I Am Here).
            for a in appts.iter().filter(|a| {
                a.starts_at - a.starts_at.rem_euclid(DAY) != today
                    && (a.starts_at - now).abs() > 2 * HOUR
            }) {
                let time = a.starts_at.rem_euclid(DAY);
                assert!(
                    (13 * HOUR..=20 * HOUR + 45 * MINUTE).contains(&time),
                    "started at {start_hour}:07 UTC: an appointment at {} min past midnight UTC",
                    time / MINUTE
                );
            }
        }
    }
}
