//! A private CUPS scheduler for the printer tests: Debian's `cupsd` started by the test itself
//! in the foreground (`-f`) with its own configuration in a temp folder, listening on
//! 127.0.0.1:<free port> (what the portal talks IPP to) and on a Unix socket in that folder
//! (what `lpadmin` administers it over). Queues are raw `file:///dev/null` printers; with
//! `PreserveJobFiles` the scheduler keeps each job's document in its spool, so a test reads the
//! bytes that arrived. scripts/setup.sh installs `cups-daemon cups-client`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct CupsServer {
    child: Option<Child>,
    pub port: u16,
    dir: tempfile::TempDir,
}

impl CupsServer {
    /// Starts a scheduler with the given queues (raw, enabled, accepting jobs).
    pub async fn start(printers: &[&str]) -> CupsServer {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for sub in ["spool", "cache", "state", "log", "ppd"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let socket = root.join("cups.sock");
        std::fs::write(
            root.join("cupsd.conf"),
            format!(
                "Listen 127.0.0.1:{port}\nListen {}\nLogLevel info\nWebInterface No\nBrowsing No\n\
                 DefaultAuthType None\nPreserveJobFiles Yes\nPreserveJobHistory Yes\n\
                 <Location />\n  Order allow,deny\n  Allow all\n</Location>\n",
                socket.display()
            ),
        )
        .unwrap();
        let r = root.display();
        std::fs::write(
            root.join("cups-files.conf"),
            format!(
                "ServerRoot {r}\nStateDir {r}/state\nCacheDir {r}/cache\nRequestRoot {r}/spool\n\
                 TempDir {r}/spool\nServerBin /usr/lib/cups\nDataDir /usr/share/cups\n\
                 AccessLog {r}/log/access_log\nErrorLog {r}/log/error_log\nPageLog {r}/log/page_log\n\
                 FileDevice Yes\nSandboxing Relaxed\n"
            ),
        )
        .unwrap();
        let child = Command::new(cupsd())
            .arg("-f")
            .arg("-c")
            .arg(root.join("cupsd.conf"))
            .arg("-s")
            .arg(root.join("cups-files.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start cupsd (scripts/setup.sh installs cups-daemon)");
        let server = CupsServer {
            child: Some(child),
            port,
            dir,
        };
        let mut up = false;
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() && socket.exists() {
                up = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(up, "cupsd did not listen on {port}: {}", server.log());
        for name in printers {
            server.add_printer(name);
        }
        server
    }

    /// The portal's PrintServer setting for this scheduler.
    pub fn address(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("cups.sock")
    }

    /// Adds a raw queue that prints to /dev/null (admin over the Unix socket).
    pub fn add_printer(&self, name: &str) {
        let out = Command::new("lpadmin")
            .arg("-h")
            .arg(self.socket())
            .args(["-p", name, "-E", "-v", "file:///dev/null", "-m", "raw"])
            .args(["-D", &format!("{name} test queue"), "-L", "Test room"])
            .output()
            .expect("run lpadmin (scripts/setup.sh installs cups-client)");
        assert!(
            out.status.success(),
            "lpadmin {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The documents of every job the scheduler received, in job order.
    pub fn job_documents(&self) -> Vec<Vec<u8>> {
        let spool = self.dir.path().join("spool");
        let mut names: Vec<PathBuf> = std::fs::read_dir(&spool)
            .map(|entries| {
                entries
                    .filter_map(|e| Some(e.ok()?.path()))
                    .filter(|p| {
                        p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with('d') && n.ends_with("-001"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names.iter().filter_map(|p| std::fs::read(p).ok()).collect()
    }

    /// Waits until `n` job documents have arrived.
    pub async fn wait_for_jobs(&self, n: usize) -> Vec<Vec<u8>> {
        for _ in 0..100 {
            let docs = self.job_documents();
            if docs.len() >= n {
                return docs;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{n} print jobs did not arrive: {}", self.log());
    }

    /// Stops the scheduler (the print server goes down); the folder stays for reading.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("log/error_log")).unwrap_or_default()
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for CupsServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn cupsd() -> &'static str {
    if Path::new("/usr/sbin/cupsd").exists() {
        "/usr/sbin/cupsd"
    } else {
        "cupsd"
    }
}
