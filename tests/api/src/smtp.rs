//! A real SMTP server (Python aiosmtpd) on loopback that stores what it receives in a Maildir:
//! the mail tests (outbox, notifications engine, notification history) assert delivered content.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct SmtpSink {
    child: Child,
    pub port: u16,
    pub maildir: PathBuf,
    _dir: tempfile::TempDir,
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        ensure_aiosmtpd();
        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("mail");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = Command::new("python3")
            .args([
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                &format!("127.0.0.1:{port}"),
                "-c",
                "aiosmtpd.handlers.Mailbox",
            ])
            .arg(&maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start python3 -m aiosmtpd");
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return SmtpSink {
                    child,
                    port,
                    maildir,
                    _dir: dir,
                };
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("aiosmtpd did not listen on {port}");
    }

    /// Raw messages received so far, sorted.
    pub fn messages(&self) -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(self.maildir.join("new"))
            .map(|entries| {
                entries
                    .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// aiosmtpd comes from PyPI (scripts/setup.sh installs it); installed here when missing, so a
/// single test file can run on its own.
fn ensure_aiosmtpd() {
    let has = || {
        Command::new("python3")
            .args(["-c", "import aiosmtpd"])
            .status()
            .is_ok_and(|s| s.success())
    };
    if has() {
        return;
    }
    let _ = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "aiosmtpd"])
        .status();
    assert!(
        has(),
        "aiosmtpd is needed for the SMTP tests: python3 -m pip install aiosmtpd"
    );
}
