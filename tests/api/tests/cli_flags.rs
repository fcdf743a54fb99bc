//! The process configuration (issue 13 §3): every setting is a flag with an environment fallback
//! (README "Configuration"), checked at start-up: a value out of range stops the process with a
//! message naming the flag instead of being replaced silently.

use std::process::{Command, Stdio};

use api_tests::*;

fn run(args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let mut command = Command::new(server_binary());
    command
        .args(args)
        .env_remove("PORTAL_NOTIFICATIONS_ENGINE")
        .env_remove("PORTAL_CLINIC_UTC_OFFSET_MINUTES")
        .env_remove("PORTAL_OUTBOX_PERIOD_MS")
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().expect("portal-api runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn help_lists_the_flags_and_their_environment_fallbacks() {
    let (ok, help) = run(&["--help"], &[]);
    assert!(ok, "{help}");
    for (flag, env) in [
        ("--notifications-engine", "PORTAL_NOTIFICATIONS_ENGINE"),
        (
            "--clinic-utc-offset-minutes",
            "PORTAL_CLINIC_UTC_OFFSET_MINUTES",
        ),
        ("--outbox-period-ms", "PORTAL_OUTBOX_PERIOD_MS"),
    ] {
        assert!(help.contains(flag), "{flag} missing:\n{help}");
        assert!(help.contains(env), "{env} missing:\n{help}");
    }
    assert!(help.contains("-300") && help.contains("5000"), "{help}");
}

#[test]
fn values_out_of_range_stop_the_start() {
    for (args, env, named) in [
        (
            vec!["--outbox-period-ms", "50"],
            vec![],
            "--outbox-period-ms",
        ),
        (
            vec![],
            vec![("PORTAL_OUTBOX_PERIOD_MS", "soon")],
            "--outbox-period-ms",
        ),
        (
            vec!["--clinic-utc-offset-minutes", "-2000"],
            vec![],
            "--clinic-utc-offset-minutes",
        ),
        (
            vec![],
            vec![("PORTAL_CLINIC_UTC_OFFSET_MINUTES", "EST")],
            "--clinic-utc-offset-minutes",
        ),
        (
            vec![],
            vec![("PORTAL_NOTIFICATIONS_ENGINE", "maybe")],
            "--notifications-engine",
        ),
    ] {
        let (ok, text) = run(&args, &env);
        assert!(!ok, "{args:?} {env:?} started");
        assert!(text.contains(named), "{args:?} {env:?}: {text}");
    }
}

#[test]
fn the_server_starts_with_the_flags_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("portal.db").display());
    let web = dir.path().join("web");
    let mut child = Command::new(server_binary())
        .args(["--bind", "127.0.0.1:0", "--database-url", &db, "--web-dir"])
        .arg(&web)
        .args(["--notifications-engine", "--outbox-period-ms", "100"])
        // The offset through the environment, as a deployment sets it.
        .env("PORTAL_CLINIC_UTC_OFFSET_MINUTES", "-480")
        .env_remove("PORTAL_OUTBOX_PERIOD_MS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("portal-api starts");
    let mut first = String::new();
    let read = std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut first,
    );
    let _ = child.kill();
    let _ = child.wait();
    read.expect("a first line");
    assert!(
        first.starts_with("listening on http://127.0.0.1:"),
        "{first:?}"
    );
}
