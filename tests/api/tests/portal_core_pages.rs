//! Portal Core pages of spec 03 §2 (issue 14): the User Account groups, Login Page Settings, Other
//! Settings, License Management and Luminary One Settings. Each saved group takes effect at once
//! on what it governs; roles, bad input (nothing stored), 409.

mod recovery_support;

use api_tests::*;
use recovery_support::*;

fn path(name: &str) -> String {
    format!("/api/configurationForm/{name}")
}

/// Reads group `name`, applies `edit`, saves it at the version read; the save's answer.
async fn save_group(client: &mut Client, name: &str, edit: impl FnOnce(&mut Value)) -> Response {
    let envelope = client.get_json(&path(name)).await;
    let mut settings = envelope["Settings"].clone();
    edit(&mut settings);
    client
        .put_json(
            &path(name),
            &json!({"Version": envelope["Version"], "Settings": settings}),
        )
        .await
}

#[tokio::test]
async fn user_account_groups_are_settings_admins_only() {
    let server = TestServer::demo().await;
    for group in [
        "UserAccountSwitchUserOptions",
        "UserAccountPassword",
        "UserAccountUserAccountVerification",
        "UserAccountPatientPortalOptions",
        "UserAccountUsernameValidation",
        "LoginPageSettings",
        "OtherSettings",
        "LuminaryOne",
    ] {
        assert_eq!(
            server.client().get(&path(group)).await.status,
            StatusCode::UNAUTHORIZED
        );
        for account in [JANE, FRONT_DESK] {
            let mut c = server.signed_in(account).await;
            assert_eq!(
                c.get(&path(group)).await.status,
                StatusCode::FORBIDDEN,
                "{group}"
            );
        }
        let mut admin = server.signed_in(CLIENT_ADMIN).await;
        admin.get_json(&path(group)).await;
    }
}

#[tokio::test]
async fn password_settings_take_effect_at_once() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(
        jane.get_json("/api/accountApi/mainMenuSettings").await["DisableChangePasswordMenu"],
        false
    );
    save_group(&mut manager, "UserAccountPassword", |s| {
        s["LenNeeded"] = json!(14);
        s["DisableChangePasswordMenu"] = json!(true);
    })
    .await
    .expect(StatusCode::OK);
    let rules = jane.get_json("/api/user/getPasswordRequirements").await;
    assert_eq!(rules["LenNeeded"], 14, "{rules}");
    assert_eq!(
        jane.get_json("/api/accountApi/mainMenuSettings").await["DisableChangePasswordMenu"],
        true
    );
    // Digits only (spec 03 §5): nothing stored.
    let answer = save_group(&mut manager, "UserAccountPassword", |s| {
        s["IDFailMax"] = json!(2.5);
        s["ResetKeyExpirationInSeconds"] = json!(null);
        s["LenNeeded"] = json!(3);
    })
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert!(answer["Errors"]["IDFailMax"].is_array(), "{answer}");
    assert!(
        answer["Errors"]["ResetKeyExpirationInSeconds"].is_array(),
        "{answer}"
    );
    assert_eq!(
        jane.get_json("/api/user/getPasswordRequirements").await["LenNeeded"],
        14
    );
}

#[tokio::test]
async fn lockout_follows_id_fail_max() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    save_group(&mut manager, "UserAccountPassword", |s| {
        s["IDFailMax"] = json!(2);
        s["IDFailureURL"] = json!("https://clinic.example/locked");
    })
    .await
    .expect(StatusCode::OK);
    let mut anon = server.client();
    for _ in 0..2 {
        let r = anon
            .login("/api/patientUser/login", "maria.garcia", "wrong")
            .await
            .expect(StatusCode::OK);
        assert_eq!(r["IsValid"], false);
    }
    // Locked after two: the right password is refused too.
    let r = anon
        .login("/api/patientUser/login", "maria.garcia", DEMO_PASSWORD)
        .await
        .json();
    assert_ne!(r["IsValid"], true, "{r}");
    // IDFailureURL: where the login page sends a locked-out user.
    assert_eq!(r["IDFailureURL"], "https://clinic.example/locked", "{r}");
}

#[tokio::test]
async fn switch_user_options_give_client_admins_the_reports() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    assert_eq!(
        admin.get_json("/api/accountApi/permissionsJson").await["ShowFrontDeskReports"],
        false
    );
    save_group(&mut manager, "UserAccountSwitchUserOptions", |s| {
        s["ShowFrontDeskReports"] = json!(true)
    })
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        admin.get_json("/api/accountApi/permissionsJson").await["ShowFrontDeskReports"],
        true
    );
    // Only client admins carry it.
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(
        desk.get_json("/api/accountApi/permissionsJson").await["ShowFrontDeskReports"],
        false
    );
}

#[tokio::test]
async fn username_limits_reach_registration_at_once() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    save_group(&mut manager, "UserAccountUsernameValidation", |s| {
        s["MinUsernameLength"] = json!(7);
        s["MaxUsernameLength"] = json!(12);
    })
    .await
    .expect(StatusCode::OK);
    let params = server
        .client()
        .get_json("/api/patientUser/userCreationParams?key=demo-registration-key-2026")
        .await;
    assert_eq!(params["Rules"]["MinUsernameLength"], 7, "{params}");
    assert_eq!(params["Rules"]["MaxUsernameLength"], 12, "{params}");
    let answer = save_group(&mut manager, "UserAccountUsernameValidation", |s| {
        s["MinUsernameLength"] = json!(20);
        s["MaxUsernameLength"] = json!(10);
    })
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["Errors"]["MinUsernameLength"],
        json!(["Minimum length can not be greater than maximum length"])
    );
}

#[tokio::test]
async fn verification_and_patient_options_reach_the_reset_link_at_once() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let mut manager = server.signed_in(MANAGER).await;
    let (key, id, _) = reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    let mut anon = server.client();
    let check = format!("/api/accountApi/validateResetPasswordKey?pwdReset={key}&id={id}");
    let before = anon.get_json(&check).await;
    assert_eq!(before["ShouldDoCellPhoneVerification"], false, "{before}");
    save_group(&mut manager, "UserAccountUserAccountVerification", |s| {
        s["IsPhoneNumberVerificationRequiredForResetPassword"] = json!(true)
    })
    .await
    .expect(StatusCode::OK);
    let after = anon.get_json(&check).await;
    assert_eq!(after["ShouldDoCellPhoneVerification"], true, "{after}");
    save_group(&mut manager, "UserAccountUserAccountVerification", |s| {
        s["IsPhoneNumberVerificationRequiredForResetPassword"] = json!(false);
        s["VerificationAttemptsMax"] = json!("x");
    })
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    save_group(&mut manager, "UserAccountUserAccountVerification", |s| {
        s["IsPhoneNumberVerificationRequiredForResetPassword"] = json!(false)
    })
    .await
    .expect(StatusCode::OK);
    // ForgotPasswordValidateDOB off: a wrong date of birth no longer stops the reset.
    save_group(&mut manager, "UserAccountPatientPortalOptions", |s| {
        s["ForgotPasswordValidateDOB"] = json!(false)
    })
    .await
    .expect(StatusCode::OK);
    let body = json!({"UserId": id.parse::<i64>().unwrap(), "NewPassword": NEW_PASSWORD, "NewPasswordRepeat": NEW_PASSWORD,
           "Month": 1, "Day": 2, "Year": 1999, "ResetPasswordToken": key});
    let answer = anon
        .put_json("/api/patientUser/changePasswordByResetToken", &body)
        .await
        .expect(StatusCode::OK);
    assert_eq!(answer["IsSuccess"], true, "{answer}");
}

#[tokio::test]
async fn login_page_settings_reach_the_login_page() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    save_group(&mut manager, "LoginPageSettings", |s| {
        s["LayoutLoginLogoWidth"] = json!(180);
        s["LayoutLoginLogoWidthMobile"] = json!(120);
        s["LayoutLoginLogoTitle"] = json!("Demo Imaging Center");
        s["LayoutLoginLogoTopPadding"] = json!(12);
    })
    .await
    .expect(StatusCode::OK);
    let layout = server
        .client()
        .get_json("/api/accountApi/loginPageSettings")
        .await;
    assert_eq!(layout["LayoutLoginLogoWidth"], 180);
    assert_eq!(layout["LayoutLoginLogoWidthMobile"], 120);
    assert_eq!(layout["LayoutLoginLogoTitle"], "Demo Imaging Center");
    assert_eq!(layout["LayoutLoginLogoTopPadding"], 12);
    // Numbers >= 0 (spec 03 §5): nothing stored.
    let answer = save_group(&mut manager, "LoginPageSettings", |s| {
        s["LayoutLoginLogoLeftPadding"] = json!(-1);
        s["LayoutLoginLogoWidth"] = json!(null);
    })
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert!(
        answer["Errors"]["LayoutLoginLogoLeftPadding"].is_array(),
        "{answer}"
    );
    assert!(
        answer["Errors"]["LayoutLoginLogoWidth"].is_array(),
        "{answer}"
    );
    assert_eq!(
        server
            .client()
            .get_json("/api/accountApi/loginPageSettings")
            .await["LayoutLoginLogoWidth"],
        180
    );
}

#[tokio::test]
async fn other_settings_sanitise_the_help_and_reach_the_shell() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(
        jane.get_json("/api/accountApi/helpContent").await["HelpModalContent"],
        ""
    );
    let html = r#"<p class="ql-align-center x-evil">Call <strong>us</strong></p><p class="ql-indent-1 ql-direction-rtl"><span class="ql-font-serif" style="color:red">x</span></p><script>alert(1)</script><a href="javascript:alert(1)" onclick="x()">l</a>"#;
    save_group(&mut manager, "OtherSettings", |s| {
        s["IsAllowedToShowHelpButton"] = json!(true);
        s["HelpModalContent"] = json!(html);
        s["IsAllowedToShowEmailResetLink"] = json!(true);
        s["EmailResetLink"] = json!("Email me a reset link");
        s["UsersListSsnColumnName"] = json!("MRN");
    })
    .await
    .expect(StatusCode::OK);
    let stored = manager.get_json(&path("OtherSettings")).await["Settings"]["HelpModalContent"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        stored.contains(r#"<p class="ql-align-center">Call <strong>us</strong></p>"#),
        "{stored}"
    );
    assert!(
        stored.contains("ql-indent-1")
            && stored.contains("ql-direction-rtl")
            && stored.contains("ql-font-serif")
    );
    for gone in ["x-evil", "script", "style", "onclick", "javascript"] {
        assert!(!stored.contains(gone), "{gone} in {stored}");
    }
    let help = jane.get_json("/api/accountApi/helpContent").await;
    assert_eq!(help["HelpModalContent"], stored);
    let menu = jane.get_json("/api/accountApi/mainMenuSettings").await;
    assert_eq!(menu["IsAllowedToShowHelpButton"], true);
    assert_eq!(menu["IsAllowedToShowEmailResetLink"], true);
    assert_eq!(menu["EmailResetLink"], "Email me a reset link");
    assert_eq!(menu["UsersListSsnColumnName"], "MRN");
    // The Account Created page's Log In link: on by default, off once turned off.
    let anon_menu = server
        .client()
        .get_json("/api/accountApi/mainMenuSettings")
        .await;
    assert_eq!(
        anon_menu["IsAllowedToShowLoginLinkWhenSelfRegistered"],
        true
    );
    save_group(&mut manager, "OtherSettings", |s| {
        s["IsAllowedToShowLoginLinkWhenSelfRegistered"] = json!(false)
    })
    .await
    .expect(StatusCode::OK);
    let anon_menu = server
        .client()
        .get_json("/api/accountApi/mainMenuSettings")
        .await;
    assert_eq!(
        anon_menu["IsAllowedToShowLoginLinkWhenSelfRegistered"],
        false
    );
    // The link text is required when the link is shown; nothing stored.
    let answer = save_group(&mut manager, "OtherSettings", |s| {
        s["EmailResetLink"] = json!("");
        s["HelpModalContent"] = json!("<p>changed</p>");
    })
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["Errors"]["EmailResetLink"],
        json!(["Link text is required"])
    );
    assert_eq!(
        jane.get_json("/api/accountApi/helpContent").await["HelpModalContent"],
        stored
    );
    assert_eq!(
        server
            .client()
            .get("/api/accountApi/helpContent")
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn license_management_switches_modules_off_everywhere() {
    let server = TestServer::demo().await;
    assert_eq!(
        server.client().get("/api/license/getLicense").await.status,
        StatusCode::UNAUTHORIZED
    );
    for account in [JANE, FRONT_DESK] {
        let mut c = server.signed_in(account).await;
        assert_eq!(
            c.get("/api/license/getLicense").await.status,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            c.post_json("/api/license/updateLicense", &json!({}))
                .await
                .status,
            StatusCode::FORBIDDEN
        );
    }
    let mut manager = server.signed_in(MANAGER).await;
    let license = manager.get_json("/api/license/getLicense").await;
    assert_eq!(
        license["force"],
        json!({"Module_Documents": true, "Module_Appointments": true, "Module_MedicalHistory": true, "Module_TabletSurvey": true})
    );
    let version = license["Version"].clone();
    let mut jane = server.signed_in(JANE).await;
    jane.get_json("/api/documents/documentsSettings").await;
    let off = json!({"Module_Documents": false, "Module_Appointments": true, "Module_MedicalHistory": true, "Module_TabletSurvey": true, "Version": version});
    let saved = manager
        .post_json("/api/license/updateLicense", &off)
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["force"]["Module_Documents"], false);
    // At once: the module's API answers 403 and the module flag is off for the menu.
    assert_eq!(
        jane.get("/api/documents/documentsSettings").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        jane.get_json("/api/accountApi/apppermissionsJson").await["Module_Documents"],
        false
    );
    // The same version again: someone saved since (409), nothing changed.
    let on = json!({"Module_Documents": true, "Module_Appointments": true, "Module_MedicalHistory": true, "Module_TabletSurvey": true, "Version": version});
    manager
        .post_json("/api/license/updateLicense", &on)
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        jane.get("/api/documents/documentsSettings").await.status,
        StatusCode::FORBIDDEN
    );
    // Appointments cannot be toggled (spec 03 §6).
    let answer = manager
        .post_json(
            "/api/license/updateLicense",
            &json!({"Module_Documents": true, "Module_Appointments": false, "Module_MedicalHistory": true, "Module_TabletSurvey": true}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["Errors"]["Module_Appointments"],
        json!(["The Appointments module cannot be toggled"])
    );
    // The spec's body without a version is accepted as it is.
    let spec_body = json!({"Module_Documents": true, "Module_Appointments": true, "Module_MedicalHistory": true, "Module_TabletSurvey": true});
    manager
        .post_json("/api/license/updateLicense", &spec_body)
        .await
        .expect(StatusCode::OK);
    jane.get_json("/api/documents/documentsSettings").await;
    for bad in [
        json!({"Module_Documents": "yes"}),
        json!([]),
        json!({"Version": "x"}),
    ] {
        let r = manager.post_json("/api/license/updateLicense", &bad).await;
        assert!(r.status.is_client_error(), "{bad}: {}", r.status);
    }
}

/// A loopback HTTP server answering every request with `status`.
async fn http_stub(status: u16) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let mut buf = [0u8; 4096];
                let _ = socket.read(&mut buf).await;
                let reply = format!(
                    "HTTP/1.1 {status} X\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"
                );
                let _ = socket.write_all(reply.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn luminary_one_settings_and_url_test() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(
        desk.get("/api/luminaryOne/settings").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        desk.get("/api/connectionTest/testLuminaryOneWebAddress?address=http://127.0.0.1:1")
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // The test: a real request with a short timeout; an error yields false.
    let up = http_stub(200).await;
    let down = http_stub(500).await;
    let test = |a: &str| {
        format!(
            "/api/connectionTest/testLuminaryOneWebAddress?address={}",
            urlencode(a)
        )
    };
    assert_eq!(manager.get_json(&test(&up)).await, json!(true));
    assert_eq!(manager.get_json(&test(&down)).await, json!(false));
    assert_eq!(
        manager.get_json(&test("http://127.0.0.1:1")).await,
        json!(false)
    );
    assert_eq!(
        manager.get_json(&test("ftp://127.0.0.1/../../etc")).await,
        json!(false)
    );
    assert_eq!(
        manager
            .get_json(&test(&format!("http://{}", "a".repeat(5000))))
            .await,
        json!(false)
    );

    let page = manager.get_json("/api/luminaryOne/settings").await;
    let versions = page["Versions"].clone();
    let body = json!({"LuminaryOneUrl": up, "ExpectedLuminaryOneVersion": "4.2.1",
        "LuminaryOnePatientDetailsSurveyId": "PatientDetails", "Versions": versions});
    let saved = manager
        .put_json("/api/luminaryOne/settings", &body)
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["ExpectedLuminaryOneVersion"], "4.2.1");
    assert_eq!(saved["LuminaryOnePatientDetailsSurveyId"], "PatientDetails");
    assert_eq!(
        manager
            .get_json("/api/admin/GetPortalVersionInformation")
            .await["ExpectedLuminaryOneVersion"],
        "4.2.1"
    );
    assert_eq!(
        manager.get_json(&path("CoreMagview")).await["Settings"]["LuminaryOneUrl"],
        json!(up)
    );
    // Read before that save: 409, nothing stored.
    let stale = json!({"LuminaryOneUrl": up, "ExpectedLuminaryOneVersion": "9.9",
        "LuminaryOnePatientDetailsSurveyId": "X", "Versions": versions});
    manager
        .put_json("/api/luminaryOne/settings", &stale)
        .await
        .expect_error(StatusCode::CONFLICT);
    // A bad address and an overlong version: 400 with their messages, nothing stored.
    let fresh = manager.get_json("/api/luminaryOne/settings").await;
    let bad = json!({"LuminaryOneUrl": "not a url", "ExpectedLuminaryOneVersion": "v".repeat(51),
        "LuminaryOnePatientDetailsSurveyId": "X", "Versions": fresh["Versions"]});
    let answer = manager
        .put_json("/api/luminaryOne/settings", &bad)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(answer["Errors"]["LuminaryOneUrl"].is_array(), "{answer}");
    assert_eq!(
        answer["Errors"]["ExpectedLuminaryOneVersion"],
        json!(["Must be at most 50 characters"])
    );
    assert_eq!(
        manager.get_json("/api/luminaryOne/settings").await["LuminaryOnePatientDetailsSurveyId"],
        "PatientDetails"
    );
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
