//! Secrets at rest (setup wizard passwords, spec 02 §5 / issue 3): AES-256-GCM with a random
//! 96-bit nonce per value and a 256-bit key kept in a key file beside the data (created with mode
//! 0600 on first start; `--key-file` / PORTAL_KEY_FILE). A stored secret is the text
//! `enc:v1:` + base64(nonce || ciphertext+tag). Values are decrypted only where the server itself
//! needs them (connection tests, mail delivery); they are never answered to the browser or logged.
//! Losing the key file makes the stored secrets unreadable: they must be entered again.

use std::path::{Path, PathBuf};

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rand::RngCore;

const PREFIX: &str = "enc:v1:";

#[derive(Clone)]
pub struct SecretBox {
    cipher: Aes256Gcm,
    /// The audit checkpoint key, derived from the same key file (audit_chain.rs).
    checkpoint: crate::audit_chain::CheckpointKey,
}

/// The key of this process, for code that reads a stored secret where no `AppState` reaches
/// (the outbox's delivery settings, run by the jobs). Set once by `lib::build`.
static INSTALLED: std::sync::OnceLock<SecretBox> = std::sync::OnceLock::new();

/// Makes `secrets` the process's key for [`reveal`] (the first call wins: one key a process).
pub fn install(secrets: &SecretBox) {
    let _ = INSTALLED.set(secrets.clone());
}

/// The clear text of a stored setting that may be a secret: one of ours decrypted with the
/// installed key; a value that is not ours (written by hand, or by a test) as it is; one of ours
/// that does not decrypt (another key) as empty, never as its ciphertext.
pub fn reveal(stored: &str) -> String {
    if !stored.starts_with(PREFIX) {
        return stored.to_owned();
    }
    match INSTALLED.get().and_then(|b| b.decrypt(stored)) {
        Some(plain) => plain,
        None => {
            tracing::warn!("a stored secret could not be decrypted with this server's key");
            String::new()
        }
    }
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBox(..)")
    }
}

/// Where the key lives when no --key-file is given: beside a SQLite database file, else
/// data/portal.key under the working directory.
pub fn default_key_file(database_url: &str) -> PathBuf {
    if let Some(rest) = database_url
        .strip_prefix("sqlite://")
        .or_else(|| database_url.strip_prefix("sqlite:"))
    {
        let path = rest.split('?').next().unwrap_or("");
        if !path.is_empty() && path != ":memory:" {
            if let Some(dir) = Path::new(path).parent() {
                return dir.join("portal.key");
            }
        }
    }
    PathBuf::from("data/portal.key")
}

impl SecretBox {
    pub fn from_key(key: &[u8; 32]) -> SecretBox {
        SecretBox {
            cipher: Aes256Gcm::new(key.into()),
            checkpoint: crate::audit_chain::CheckpointKey::derive(key),
        }
    }

    /// The key that signs audit checkpoints (derived from this key file, never stored).
    pub fn checkpoint_key(&self) -> crate::audit_chain::CheckpointKey {
        self.checkpoint.clone()
    }

    /// Reads the key file, or creates it (folder too) with a fresh random key.
    pub fn open(path: &Path) -> std::io::Result<SecretBox> {
        match std::fs::read(path) {
            Ok(bytes) => {
                let key: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{} is not a 32-byte key", path.display()),
                    )
                })?;
                Ok(SecretBox::from_key(&key))
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)?;
                }
                let mut key = [0u8; 32];
                rand::rngs::OsRng.fill_bytes(&mut key);
                write_private(path, &key)?;
                Ok(SecretBox::from_key(&key))
            }
            Err(err) => Err(err),
        }
    }

    pub fn encrypt(&self, plain: &str) -> String {
        let mut nonce = [0u8; 12];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let sealed = self
            .cipher
            .encrypt(Nonce::from_slice(&nonce), plain.as_bytes())
            .expect("AES-GCM encryption of a short value cannot fail");
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        format!("{PREFIX}{}", STANDARD.encode(out))
    }

    /// The clear text of a stored value; None when it is not ours or does not authenticate.
    pub fn decrypt(&self, stored: &str) -> Option<String> {
        let bytes = STANDARD.decode(stored.strip_prefix(PREFIX)?).ok()?;
        if bytes.len() < 12 + 16 {
            return None;
        }
        let (nonce, sealed) = bytes.split_at(12);
        let plain = self.cipher.decrypt(Nonce::from_slice(nonce), sealed).ok()?;
        String::from_utf8(plain).ok()
    }
}

pub fn is_encrypted(stored: &str) -> bool {
    stored.starts_with(PREFIX)
}

#[cfg(unix)]
fn write_private(path: &Path, key: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(key)
}

#[cfg(not(unix))]
fn write_private(path: &Path, key: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, key)
}

#[cfg(test)]
mod tests {

    #[test]
    fn reveal_decrypts_ours_keeps_plain_text_and_never_shows_a_foreign_ciphertext() {
        let ours = SecretBox::from_key(&[7u8; 32]);
        install(&ours);
        let installed = INSTALLED.get().unwrap();
        assert_eq!(reveal(&installed.encrypt("tok456")), "tok456");
        assert_eq!(reveal("typed by hand"), "typed by hand");
        let foreign = SecretBox::from_key(&[9u8; 32]).encrypt("tok456");
        if installed.decrypt(&foreign).is_none() {
            assert_eq!(reveal(&foreign), "");
        }
    }

    use super::*;

    #[test]
    fn round_trip_and_tamper() {
        let sb = SecretBox::from_key(&[7u8; 32]);
        let a = sb.encrypt("s3cret");
        let b = sb.encrypt("s3cret");
        assert_ne!(a, b, "a fresh nonce each time");
        assert!(is_encrypted(&a) && !a.contains("s3cret"));
        assert_eq!(sb.decrypt(&a).as_deref(), Some("s3cret"));
        let mut tampered = a.clone();
        tampered.pop();
        tampered.push(if a.ends_with('A') { 'B' } else { 'A' });
        assert_eq!(sb.decrypt(&tampered), None);
        assert_eq!(SecretBox::from_key(&[8u8; 32]).decrypt(&a), None);
        assert_eq!(sb.decrypt("plain"), None);
    }

    #[test]
    fn key_file_is_created_once_and_private() {
        let dir = std::env::temp_dir().join(format!(
            "portal-key-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let path = dir.join("portal.key");
        let sealed = SecretBox::open(&path).unwrap().encrypt("x");
        assert_eq!(
            SecretBox::open(&path).unwrap().decrypt(&sealed).as_deref(),
            Some("x")
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn default_key_file_sits_beside_sqlite() {
        assert_eq!(
            default_key_file("sqlite:///tmp/x/portal.db"),
            PathBuf::from("/tmp/x/portal.key")
        );
        assert_eq!(
            default_key_file("sqlite://data/portal.db?mode=rwc"),
            PathBuf::from("data/portal.key")
        );
        assert_eq!(
            default_key_file("postgres://u@h/db"),
            PathBuf::from("data/portal.key")
        );
    }
}
