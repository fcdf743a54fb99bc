//! Tamper evidence of the audit log (issue 15): a hash chain with signed checkpoints.
//!
//! Every row gets a gapless sequence number, the previous row's hash and its own: SHA-256 over a
//! canonical encoding of the previous hash, the sequence number and every column of the row
//! ([`row_hash`]). They are assigned while the chain head is held (the head row locked FOR UPDATE
//! on PostgreSQL; SQLite's one writer), in the transaction of the change the row records.
//! Database triggers refuse UPDATE and DELETE of audit rows. Someone who bypasses them (a
//! superuser, the file itself) could still rewrite the chain from a row on; the checkpoints stop
//! that: every [`CHECKPOINT_EVERY`] rows, and every [`CHECKPOINT_PERIOD`] while rows arrive, the
//! head is signed with HMAC-SHA256 under a key derived from the portal's key file, which is not
//! in the database. [`verify`] (`portal-api audit verify`) walks both and names the first break.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::db::{now_ms, Db, Tx};
use crate::error::AppResult;
use crate::store::audit_log::{self, AuditRow, Checkpoint, Link};

/// A checkpoint is written with every this many rows...
pub const CHECKPOINT_EVERY: i64 = 1000;
/// ...and by the periodic job when rows arrived since the last one.
pub const CHECKPOINT_PERIOD: std::time::Duration = std::time::Duration::from_secs(300);

/// The hash the first row points back to.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The row's hash: SHA-256 of a versioned, length-prefixed encoding (so no two different rows
/// encode alike), lowercase hex.
pub fn row_hash(prev_hash: &str, seq: i64, r: &AuditRow) -> String {
    let mut h = Sha256::new();
    h.update(b"portal-audit-v1");
    text(&mut h, Some(prev_hash));
    int(&mut h, Some(seq));
    int(&mut h, Some(r.created_at));
    int(&mut h, r.user_id);
    int(&mut h, r.impersonator_user_id);
    text(&mut h, Some(&r.action));
    text(&mut h, Some(&r.category));
    text(&mut h, r.target_type.as_deref());
    text(&mut h, r.target_id.as_deref());
    int(&mut h, r.target_user_id);
    text(&mut h, r.old_values.as_deref());
    text(&mut h, r.new_values.as_deref());
    text(&mut h, r.ip.as_deref());
    int(&mut h, r.patient_id);
    int(&mut h, r.study_id);
    text(&mut h, r.outcome.as_deref());
    hex(&h.finalize())
}

fn int(h: &mut Sha256, v: Option<i64>) {
    match v {
        None => h.update([0u8]),
        Some(v) => {
            h.update([1u8]);
            h.update(v.to_be_bytes());
        }
    }
}

fn text(h: &mut Sha256, v: Option<&str>) {
    match v {
        None => h.update([0u8]),
        Some(v) => {
            h.update([2u8]);
            h.update((v.len() as u64).to_be_bytes());
            h.update(v.as_bytes());
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The checkpoint key: HMAC-SHA256 of a fixed label under the key file's key (a key of its own,
/// so the secrets key is never used for two purposes).
#[derive(Clone)]
pub struct CheckpointKey([u8; 32]);

impl CheckpointKey {
    pub fn derive(master: &[u8; 32]) -> CheckpointKey {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(master).expect("any key length");
        mac.update(b"portal audit checkpoints v1");
        CheckpointKey(mac.finalize().into_bytes().into())
    }

    fn mac(&self, seq: i64, row_hash: &str, created_at: i64) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0).expect("any key length");
        mac.update(format!("{seq}|{row_hash}|{created_at}").as_bytes());
        mac
    }

    pub fn sign(&self, seq: i64, row_hash: &str, created_at: i64) -> String {
        hex(&self.mac(seq, row_hash, created_at).finalize().into_bytes())
    }

    /// Constant-time check of a stored signature.
    pub fn check(&self, c: &Checkpoint) -> bool {
        let Some(sig) = unhex(&c.signature) else {
            return false;
        };
        self.mac(c.seq, &c.row_hash, c.created_at)
            .verify_slice(&sig)
            .is_ok()
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The key of this process (set once by `lib::build` from the key file); without it (a tool
/// that opens the database alone) rows are still chained, only not checkpointed inline.
static KEY: std::sync::OnceLock<CheckpointKey> = std::sync::OnceLock::new();

pub fn install(key: CheckpointKey) {
    let _ = KEY.set(key);
}

/// Appends `r` to the chain inside `tx` (the change's own transaction), and signs a checkpoint
/// when its sequence number is a multiple of [`CHECKPOINT_EVERY`].
pub async fn append(tx: &mut Tx, r: &AuditRow) -> AppResult<Link> {
    let head = audit_log::lock_head(tx).await?;
    let seq = head.seq + 1;
    let link = Link {
        seq,
        row_hash: row_hash(&head.row_hash, seq, r),
    };
    audit_log::append(tx, r, &head.row_hash, &link).await?;
    if seq % CHECKPOINT_EVERY == 0 {
        if let Some(key) = KEY.get() {
            sign_head(tx, key, &link).await?;
        }
    }
    Ok(link)
}

/// The bulk form of [`append`] for many rows at once (an import, the million-row benchmark):
/// the head is locked once, the links are computed here exactly as [`append`] would one by one,
/// the rows go in with multi-row INSERTs, and a checkpoint is signed at every multiple of
/// [`CHECKPOINT_EVERY`] the batch passes. The chain it leaves is the same one `append` would.
pub async fn append_batch(tx: &mut Tx, rows: &[AuditRow]) -> AppResult<Vec<Link>> {
    let head = audit_log::lock_head(tx).await?;
    let mut links = Vec::with_capacity(rows.len());
    let mut prev = head.row_hash.clone();
    for (i, r) in rows.iter().enumerate() {
        let seq = head.seq + 1 + i as i64;
        let hash = row_hash(&prev, seq, r);
        prev.clone_from(&hash);
        links.push(Link {
            seq,
            row_hash: hash,
        });
    }
    audit_log::append_many(tx, rows, &head.row_hash, &links).await?;
    if let Some(key) = KEY.get() {
        for link in links.iter().filter(|l| l.seq % CHECKPOINT_EVERY == 0) {
            sign_head(tx, key, link).await?;
        }
    }
    Ok(links)
}

async fn sign_head(tx: &mut Tx, key: &CheckpointKey, link: &Link) -> AppResult<()> {
    let created_at = now_ms();
    audit_log::insert_checkpoint(
        tx,
        &Checkpoint {
            seq: link.seq,
            row_hash: link.row_hash.clone(),
            created_at,
            signature: key.sign(link.seq, &link.row_hash, created_at),
        },
    )
    .await
}

/// Seals rows written before the chain existed (a database migrated from an older version) and
/// signs the head when it moved past the last checkpoint: run at start-up and every
/// [`CHECKPOINT_PERIOD`]. Returns how many rows were sealed.
pub async fn seal_and_checkpoint(db: &Db, key: &CheckpointKey) -> AppResult<usize> {
    let mut tx = db.begin().await?;
    let mut head = audit_log::lock_head(&mut tx).await?;
    let unsealed = audit_log::unsealed(&mut tx).await?;
    for (id, row) in &unsealed {
        let seq = head.seq + 1;
        let link = Link {
            seq,
            row_hash: row_hash(&head.row_hash, seq, row),
        };
        audit_log::seal(&mut tx, *id, &head.row_hash, &link).await?;
        head = link;
    }
    if head.seq > audit_log::last_checkpoint_seq(&mut tx).await? {
        sign_head(&mut tx, key, &head).await?;
    }
    tx.commit().await?;
    Ok(unsealed.len())
}

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub rows: i64,
    pub checkpoints: usize,
    /// The first problem, in chain order; None: the chain is whole.
    pub first_break: Option<Break>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Break {
    /// The sequence number where the chain breaks (or the row id of a row outside the chain).
    pub seq: i64,
    pub problem: String,
}

impl std::fmt::Display for Break {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seq {}: {}", self.seq, self.problem)
    }
}

/// Walks the chain in sequence order, in batches, and the signed checkpoints beside it; stops at
/// the first break: a missing or extra sequence number, a row whose previous hash is not its
/// predecessor's, a row whose content no longer gives its hash, a checkpoint whose signature
/// fails or whose row changed, rows missing after a checkpoint, a head that is not the last row,
/// or a row outside the chain.
pub async fn verify(db: &Db, key: &CheckpointKey) -> AppResult<Report> {
    const BATCH: i64 = 5000;
    let checkpoints = audit_log::checkpoints(db).await?;
    let mut report = Report {
        rows: 0,
        checkpoints: checkpoints.len(),
        first_break: None,
    };
    let broken = |seq: i64, problem: String| Some(Break { seq, problem });
    for c in &checkpoints {
        if !key.check(c) {
            report.first_break = broken(
                c.seq,
                "checkpoint signature does not verify (forged or signed with another key)".into(),
            );
            return Ok(report);
        }
    }
    let mut pending = checkpoints.iter().peekable();
    let (mut last_seq, mut last_hash) = (0i64, GENESIS.to_owned());
    loop {
        let batch = audit_log::chain_batch(db, last_seq, BATCH).await?;
        if batch.is_empty() {
            break;
        }
        for r in &batch {
            let seq = r.seq.unwrap_or_default();
            if seq != last_seq + 1 {
                report.first_break = broken(
                    last_seq + 1,
                    format!("row missing (the next row in the chain is seq {seq})"),
                );
                return Ok(report);
            }
            if r.prev_hash.as_deref() != Some(last_hash.as_str()) {
                report.first_break = broken(
                    seq,
                    "previous hash does not match the row before (rows reordered or replaced)"
                        .into(),
                );
                return Ok(report);
            }
            let hash = row_hash(&last_hash, seq, &r.row);
            if r.row_hash.as_deref() != Some(hash.as_str()) {
                report.first_break = broken(
                    seq,
                    format!(
                        "row content does not match its hash (row id {} edited)",
                        r.id
                    ),
                );
                return Ok(report);
            }
            while let Some(c) = pending.next_if(|c| c.seq <= seq) {
                if c.seq == seq && c.row_hash != hash {
                    report.first_break = broken(
                        seq,
                        "the signed checkpoint names another hash (chain rewritten)".into(),
                    );
                    return Ok(report);
                }
            }
            last_seq = seq;
            last_hash = hash;
            report.rows += 1;
        }
    }
    if let Some(c) = pending.next() {
        report.first_break = broken(
            last_seq + 1,
            format!(
                "rows missing: the chain ends at seq {last_seq} but a signed checkpoint covers seq {}",
                c.seq
            ),
        );
        return Ok(report);
    }
    let head = audit_log::head(db).await?;
    if head.seq != last_seq || head.row_hash != last_hash {
        report.first_break = broken(
            last_seq + 1,
            format!(
                "the chain ends at seq {last_seq} but its head records seq {} (rows missing at the end)",
                head.seq
            ),
        );
        return Ok(report);
    }
    if let Some(id) = audit_log::first_unsealed_id(db).await? {
        report.first_break = broken(
            last_seq + 1,
            format!("row id {id} is outside the chain (no sequence number)"),
        );
    }
    Ok(report)
}

/// A [`verify`] of a database named by URL, with the key file the server would use.
pub struct Timed {
    pub report: Report,
    pub elapsed: std::time::Duration,
}

pub async fn verify_database(
    database_url: &str,
    key_file: Option<std::path::PathBuf>,
) -> Result<Timed, String> {
    let key_file = key_file.unwrap_or_else(|| crate::secrets::default_key_file(database_url));
    if !key_file.exists() {
        return Err(format!("no key file at {}", key_file.display()));
    }
    let secrets = crate::secrets::SecretBox::open(&key_file)
        .map_err(|e| format!("cannot open the key file {}: {e}", key_file.display()))?;
    let db = Db::open(database_url).await.map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let report = verify(&db, &secrets.checkpoint_key())
        .await
        .map_err(|e| e.to_string())?;
    let elapsed = started.elapsed();
    db.close().await;
    Ok(Timed { report, elapsed })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> AuditRow {
        AuditRow {
            created_at: 1,
            action: "LetterViewed".into(),
            category: "Documents".into(),
            new_values: Some("{}".into()),
            ..AuditRow::default()
        }
    }

    #[test]
    fn the_hash_covers_every_field_and_the_link() {
        let base = row_hash(GENESIS, 1, &row());
        assert_eq!(base.len(), 64);
        assert_eq!(base, row_hash(GENESIS, 1, &row()), "deterministic");
        assert_ne!(base, row_hash(GENESIS, 2, &row()));
        assert_ne!(base, row_hash(&"1".repeat(64), 1, &row()));
        let mut r = row();
        r.ip = Some(String::new());
        assert_ne!(base, row_hash(GENESIS, 1, &r), "empty is not NULL");
        let mut r = row();
        r.patient_id = Some(7);
        assert_ne!(base, row_hash(GENESIS, 1, &r));
        // Moving text between adjacent fields changes the hash (length prefixes).
        let (mut a, mut b) = (row(), row());
        a.target_type = Some("ab".into());
        a.target_id = Some("c".into());
        b.target_type = Some("a".into());
        b.target_id = Some("bc".into());
        assert_ne!(row_hash(GENESIS, 1, &a), row_hash(GENESIS, 1, &b));
    }

    #[test]
    fn checkpoints_verify_only_with_their_key_and_content() {
        let key = CheckpointKey::derive(&[7u8; 32]);
        let sig = key.sign(1000, "ab", 5);
        let c = Checkpoint {
            seq: 1000,
            row_hash: "ab".into(),
            created_at: 5,
            signature: sig,
        };
        assert!(key.check(&c));
        assert!(!CheckpointKey::derive(&[8u8; 32]).check(&c));
        assert!(!key.check(&Checkpoint {
            seq: 999,
            ..c.clone()
        }));
        assert!(!key.check(&Checkpoint {
            signature: "zz".into(),
            ..c
        }));
    }
}
