//! A real SAML 2.0 identity provider on loopback (tests/saml-idp/idp.py: pysaml2 with Debian's
//! xmlsec1) for the SAML sign-in tests. Its RSA key and certificate are made with openssl in a
//! temporary folder for each start: no private key lives in the repository.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The pysaml2 version scripts/setup.sh installs into target/saml-idp.
pub const PYSAML2_VERSION: &str = "7.5.5";

pub struct SamlIdp {
    child: Child,
    pub port: u16,
    _dir: tempfile::TempDir,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The venv's python with pysaml2 (made here when missing, so one test file can run alone).
pub fn python() -> PathBuf {
    let venv = workspace().join("target/saml-idp");
    let python = venv.join("bin/python");
    let has = |p: &Path| {
        Command::new(p)
            .args(["-c", "import saml2"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !has(&python) {
        let _ = Command::new("python3")
            .arg("-m")
            .arg("venv")
            .arg(&venv)
            .status();
        let _ = Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", &format!("pysaml2=={PYSAML2_VERSION}")])
            .status();
    }
    assert!(
        has(&python),
        "pysaml2 is needed for the SAML tests: scripts/setup.sh installs it in target/saml-idp"
    );
    python
}

impl SamlIdp {
    /// Starts the IdP; it fetches the SP's metadata from `sp_metadata_url` on its first request.
    pub async fn start(sp_metadata_url: &str) -> SamlIdp {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("test-idp.key");
        let cert = dir.path().join("test-idp.crt");
        let made = Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            ])
            .args(["-subj", "/CN=portal-test-idp"])
            .arg("-keyout")
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("openssl");
        assert!(made.success(), "openssl req failed");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = Command::new(python())
            .arg(workspace().join("tests/saml-idp/idp.py"))
            .args(["--port", &port.to_string()])
            .arg("--key")
            .arg(&key)
            .arg("--cert")
            .arg(&cert)
            .args(["--sp-metadata", sp_metadata_url])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the test IdP");
        for _ in 0..150 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return SamlIdp {
                    child,
                    port,
                    _dir: dir,
                };
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("the test IdP did not listen on {port}");
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for SamlIdp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
