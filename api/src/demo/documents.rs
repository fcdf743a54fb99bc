//! Demo letters of the patient area (issue 4): mailing addresses on the patients, a long
//! two-page result letter and an ack-on-view letter for Jane, and one stored PDF report (an
//! "other" document), a referring physician letter and a recall letter. Runs after the core demo data, in the same empty-database start.

use crate::db::{now_ms, Db};
use crate::error::AppResult;
use crate::letter_pdf::{self, LetterPdf};
use crate::store::demo::letters::{insert_letter, NewLetter};
use crate::store::demo::{clinic, people};

const DAY: i64 = 86_400_000;

const STREETS: &[&str] = &[
    "Elm Street",
    "Maple Avenue",
    "Oak Lane",
    "Cedar Court",
    "Birch Road",
    "Willow Way",
];
const TOWNS: &[&str] = &[
    "Springfield, IL 62701",
    "Shelbyville, IL 62565",
    "Ogdenville, IL 62650",
];

pub const LONG_LETTER_TOKEN_PREFIX: &str = "demo-letter-jane-long-";

/// The body of the long result letter (two pages with the header and closing).
pub fn long_result_body(name: &str) -> String {
    format!(
        "Dear {name},\n\n\
Thank you for choosing Demo Breast Imaging for your recent breast imaging examination. This letter gives you the results of the examination listed above, which a board-certified radiologist who specialises in breast imaging has reviewed together with your earlier images.\n\n\
Result: your examination shows no evidence of cancer (BI-RADS 1, negative). Your next screening mammogram is recommended in one year. Findings such as benign calcifications, lymph nodes within the breast or stable masses are common; where they were seen, they need no further action now.\n\n\
Breast density: your mammogram shows that your breast tissue is heterogeneously dense. Dense breast tissue is common and is not abnormal. However, dense breast tissue can make it harder to find cancer on a mammogram and may also be associated with an increased risk of breast cancer. This information about the result of your mammogram is given to you to raise your awareness. Use this information to talk to your health care provider about your own risks for breast cancer. At that time, ask your provider if more screening tests might be useful, based on your risk. A report of your results was sent to your physician.\n\n\
What you can do: keep a record of this letter with your medical papers. Tell your provider about any change you notice, such as a lump, skin dimpling, nipple discharge or pain in one area, even if your mammogram was normal. No examination finds every cancer, and a normal result does not mean a change later should be ignored.\n\n\
Your images are kept at our center. If you move or change providers, please let us know so that we can send your images to your new provider; comparing new images with earlier ones helps the radiologist read them.\n\n\
If you have questions about this letter, please call us at 555-0101, Monday to Friday, 8 AM to 5 PM. You can also read all of your letters in the patient portal, where you can acknowledge that you have received this one."
    )
}

pub async fn load(db: &Db, clinic_utc_offset_minutes: i32) -> AppResult<()> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let patients = people::patient_names(&mut tx).await?;
    for (i, (id, ..)) in patients.iter().enumerate() {
        let address = format!(
            "{} {}\n{}",
            10 + (i * 7) % 180,
            STREETS[i % STREETS.len()],
            TOWNS[i % TOWNS.len()]
        );
        people::set_address(&mut tx, *id, &address).await?;
    }
    let Some((jane, first, last)) = patients.first().cloned() else {
        return Ok(tx.commit().await?);
    };
    // The study of her latest result letter (a past one).
    let study = clinic::latest_study(&mut tx, jane, &crate::fmt::iso_utc(now)[..10]).await?;
    let name = format!("{first} {last}");
    // Tokens are random like every other letter's; tests find the letters by type.
    let token = |kind: &str| {
        format!(
            "{LONG_LETTER_TOKEN_PREFIX}{kind}-{}",
            crate::auth::random_token()
        )
    };
    let (density_token, reminder_token, report_token) =
        (token("density"), token("reminder"), token("report"));
    let letter = |access_token, letter_type, body, sent_at| NewLetter {
        patient_id: jane,
        study_id: study,
        access_token,
        letter_type,
        notify_type: "Email",
        body,
        pdf: None,
        sent_at,
        read_at: None,
        acked_at: None,
        is_ack_on_view: false,
        bi_rads: Some("1"),
        release_seq: None,
    };
    let body = long_result_body(&name);
    let density = letter(
        &density_token,
        "Breast Density Notification",
        &body,
        now - 3 * DAY,
    );
    insert_letter(&mut tx, &density).await?;
    let body = format!(
        "Dear {name},\n\nIt is time to schedule your annual screening mammogram. Regular screening finds \
         breast cancer early, when it is easiest to treat.\n\nPlease call us at 555-0101 to book a time \
         that suits you, or reply through the patient portal."
    );
    let reminder = NewLetter {
        is_ack_on_view: true,
        bi_rads: None,
        ..letter(
            &reminder_token,
            "Annual Screening Reminder",
            &body,
            now - DAY,
        )
    };
    insert_letter(&mut tx, &reminder).await?;
    // A report attached as a stored PDF: it is served as stored, and listed with other documents.
    let report_pdf = letter_pdf::render(&LetterPdf {
        clinic_name: "Demo Breast Imaging".into(),
        clinic_address: "100 Harbor Street, Springfield".into(),
        clinic_phone: "555-0101".into(),
        letter_type: "Radiology Report".into(),
        letter_date: String::new(),
        patient_name: name.clone(),
        patient_mrn: "100001".into(),
        patient_dob: String::new(),
        patient_address: String::new(),
        study_date: String::new(),
        study_desc: "Screening Mammogram".into(),
        body: "EXAMINATION: Bilateral screening mammogram with tomosynthesis.\n\nCOMPARISON: Prior examinations.\n\n\
               FINDINGS: The breasts are heterogeneously dense. There is no suspicious mass, architectural \
               distortion or suspicious calcification.\n\nIMPRESSION: Negative. BI-RADS 1.\n\nRECOMMENDATION: \
               Screening mammogram in one year."
            .into(),
        texts: Default::default(),
    });
    let report = NewLetter {
        notify_type: "Portal",
        pdf: Some(report_pdf.as_slice()),
        read_at: Some(now - 9 * DAY),
        ..letter(&report_token, "Radiology Report", "", now - 10 * DAY)
    };
    insert_letter(&mut tx, &report).await?;
    // A letter to her referring physician (patients see it only with ShowDoctorLettersToPatients)
    // and a read recall letter: the documents settings' examples (issue 16).
    let (rp_token, recall_token) = (token("referring"), token("recall"));
    let body = format!(
        "Dear Dr. Adams,\n\nYour patient {name} had a screening mammogram with us. The result is \
         negative (BI-RADS 1).\n\nDemo Breast Imaging"
    );
    let referring = NewLetter {
        read_at: Some(now - 4 * DAY),
        ..letter(&rp_token, "Referring Physician", &body, now - 5 * DAY)
    };
    insert_letter(&mut tx, &referring).await?;
    let body = format!(
        "Dear {name},\n\nOur records show you are due for your yearly screening mammogram. Please call \
         us at 555-0101.\n\nDemo Breast Imaging"
    );
    let recall = NewLetter {
        read_at: Some(now - 19 * DAY),
        acked_at: Some(now - 19 * DAY),
        ..letter(&recall_token, "Annual Recall", &body, now - 20 * DAY)
    };
    insert_letter(&mut tx, &recall).await?;
    // A result letter the clinical system released twice on one clinic day with the same RSeq
    // (a corrected re-release, 09:00 and 16:30 clinic time twelve days ago): the list shows the
    // newest only, both with DisableRSeqRDateGrouping, and '... (1)' with
    // DocumentsIsShowRSeqWithDocType (issue 16). Both read, so the unread list is as before.
    let offset_ms = i64::from(clinic_utc_offset_minutes) * 60_000;
    let clinic_day = (now - 12 * DAY + offset_ms).div_euclid(DAY) * DAY - offset_ms;
    let body = format!(
        "Dear {name},\n\nYour diagnostic mammogram shows benign findings (BI-RADS 2). No further \
         imaging is needed now; your next screening mammogram is due in one year.\n\nDemo Breast Imaging"
    );
    let releases = [
        (token("release-1"), 9 * 60),
        (token("release-2"), 16 * 60 + 30),
    ];
    for (release_token, at) in &releases {
        let sent_at = clinic_day + at * 60_000;
        let release = NewLetter {
            read_at: Some(sent_at + 60 * 60_000),
            bi_rads: Some("2"),
            release_seq: Some(1),
            ..letter(release_token, "Diagnostic Result Letter", &body, sent_at)
        };
        insert_letter(&mut tx, &release).await?;
    }
    // Maria has an unread ack-on-view letter: the mobile viewer's ack-on-view browser test reads it.
    if let Some(maria) = people::patient_of_user(&mut tx, "maria.garcia").await? {
        insert_letter(
            &mut tx,
            &NewLetter {
                patient_id: maria,
                study_id: None,
                access_token: &token("followup"),
                letter_type: "Follow-up Reminder",
                notify_type: "Email",
                body: "Dear Maria Garcia,\n\nPlease schedule the follow-up ultrasound your radiologist recommended. \
                       Call us at 555-0101.\n\nDemo Breast Imaging",
                pdf: None,
                sent_at: now - 2 * DAY,
                read_at: None,
                acked_at: None,
                is_ack_on_view: true,
                bi_rads: None,
                release_seq: None,
            },
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}
