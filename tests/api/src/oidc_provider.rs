//! A real OAuth 2 / OpenID Connect authorization server on loopback (tests/oidc-provider:
//! npm oidc-provider with a small SMART on FHIR layer) for the Epic and Cerner sign-in tests.
//! The portal's Epic key pair is made with openssl for each start: no private key lives in the
//! repository; the server registers the public half.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The client ids and Cerner's secret the server registers.
pub const EPIC_CLIENT_ID: &str = "portal-epic";
pub const CERNER_CLIENT_ID: &str = "portal-cerner";
pub const CERNER_SECRET: &str = "cerner-test-secret";

pub struct OidcProvider {
    child: Child,
    pub port: u16,
    /// The PEM of the portal's Epic private key (EpicJwtPrivateKey).
    pub epic_private_key: String,
    _dir: tempfile::TempDir,
}

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../oidc-provider")
}

impl OidcProvider {
    /// Starts the server; `redirect_uris` are the portal's callbacks it accepts.
    pub async fn start(redirect_uris: &[String]) -> OidcProvider {
        assert!(
            folder().join("node_modules/oidc-provider").is_dir(),
            "npm oidc-provider is needed for the OAuth tests: scripts/setup.sh installs it (npm ci in tests/oidc-provider)"
        );
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("epic.pem");
        let public = dir.path().join("epic.pub.pem");
        let made = Command::new("openssl")
            .args([
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                "rsa_keygen_bits:2048",
            ])
            .arg("-out")
            .arg(&key)
            .stderr(Stdio::null())
            .status()
            .expect("openssl");
        assert!(made.success(), "openssl genpkey failed");
        let made = Command::new("openssl")
            .args(["pkey", "-pubout", "-in"])
            .arg(&key)
            .arg("-out")
            .arg(&public)
            .status()
            .expect("openssl");
        assert!(made.success(), "openssl pkey failed");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = Command::new("node")
            .arg(folder().join("server.mjs"))
            .args(["--port", &port.to_string()])
            .args(["--redirect", &redirect_uris.join(",")])
            .arg("--epic-public-key")
            .arg(&public)
            .args(["--cerner-secret", CERNER_SECRET])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the test authorization server (node)");
        for _ in 0..150 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return OidcProvider {
                    child,
                    port,
                    epic_private_key: std::fs::read_to_string(&key).unwrap(),
                    _dir: dir,
                };
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("the test authorization server did not listen on {port}");
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The FHIR base whose `aud` the server accepts.
    pub fn fhir(&self) -> String {
        format!("{}/fhir", self.base_url())
    }
}

impl Drop for OidcProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
