//! Compatibility with the API as it stands: it stores these groups as untyped JSON documents
//! and reads keys by name. Every key it reads must be a field of the group it reads it from,
//! and every default document it inserts (`api` `settings::defaults()`, copied below) must be
//! the typed group's defaults, so moving the API to the typed groups changes no behaviour.

use serde_json::{json, Value};

use super::SettingsGroup;

/// The serialized defaults of group `name`.
fn default_json(name: &str) -> Option<Value> {
    macro_rules! find {
        ($($t:ty),* $(,)?) => {
            match name {
                $(<$t as SettingsGroup>::NAME => Some(serde_json::to_value(<$t>::default()).unwrap()),)*
                _ => None,
            }
        };
    }
    crate::for_each_group!(find)
}

/// `api` `settings::defaults()`, every group.
fn api_defaults() -> Vec<(&'static str, Value)> {
    vec![
        (
            "CorePortal",
            json!({
                "ClientName": "Demo Breast Imaging", "PublicWebAddress": "",
                "SessionTimeoutMinutes": 20, "WarnBeforeSessionTimeoutMinutes": 2,
                "SessionTimeoutRedirectLink": "", "CountOfRetriesInCaseDeadlock": 3,
                "DelayInMillisecondsBetweenRetriesInCaseDeadlock": 200, "IsSsoMode": false,
                "IsCernerOAuthEnabled": false, "DisableSecondaryRecoveryOptions": false
            }),
        ),
        (
            "HistoryPortal",
            json!({
                "HistoryPortalMaxReadyForExamEmail": -1, "IsDisabledIamHere": false,
                "IsHideAppointmentTimeInHistoryPortal": false
            }),
        ),
        (
            "SurveyGeneral",
            json!({
                "DefaultSurvey": "", "IsSurveyPerLocationEnabled": true,
                "GenerateSummaryReport": false, "SummaryPdfHeaderText": "",
                "IsAddPageNumberToSummaryPdf": true, "PdfPageNumberFontSize": 9,
                "PdfPageNumberAlignment": "Center", "IsAddHeaderToAllPagesToSummaryPdf": false
            }),
        ),
        (
            "UserManagement",
            json!({
                "UserManagementViewMode": "Regular",
                "IsImpersonationEnabled": true,
                "EnableDemoMode": false,
                "IsAdminPinAndLocationsRestrictionsEnabled": false
            }),
        ),
        (
            "License",
            json!({ "Module_Documents": true, "Module_Appointments": true, "Module_MedicalHistory": true }),
        ),
        (
            "CoreNotifications",
            json!({
                "EmailFrom": "", "EmailFromName": "", "UseSMTPServer": true, "SMTPServer": "",
                "SMTPServerCertificate": "", "SMTPUseSSL": false, "UseAltSmtpAcct": false,
                "UserName": "", "Password": "", "Port": 25, "Timeout": 30,
                "IsErrorEmailEnabled": false, "EmailToSendError": "", "TwilioAccSid": "",
                "TwilioAuthToken": "", "TwilioFrom": "", "TwilioCallbackUrl": "",
                "AzureTwilioEndpoint": ""
            }),
        ),
        (
            "UserAccountPassword",
            json!({
                "UseComplexityRequirements": true, "LenNeeded": 8, "NumNeeded": 1,
                "UcaseNeeded": 1, "SymNeeded": 1, "IDFailMax": 5, "IDFailureURL": "",
                "ResetKeyExpirationInSeconds": 3600, "NewPasswordString": "New password",
                "NewPasswordAgainString": "Repeat new password", "ResetPasswordRedirectUrl": "",
                "DisableChangePasswordMenu": false, "RequireMfaForAdmins": false
            }),
        ),
        (
            "UserAccountUserAccountVerification",
            json!({
                "VerificationAttemptsMax": 5, "VerificationCodeRequestsMax": 5,
                "VerificationCodeTimeoutInMinutes": 10,
                "IsPhoneNumberPatientVerificationEnabled": false,
                "IsPhoneNumberVerificationRequiredForResetPassword": false
            }),
        ),
        (
            "UserAccountPatientPortalOptions",
            json!({ "RequireDOB": true, "ForgotPasswordValidateDOB": true }),
        ),
        (
            "DocumentsEssential",
            json!({
                "ShowOtherDocumentsTab": true, "ShowDoctorLettersToPatients": false,
                "ShowReferringPhysicianLettersWithOtherDocuments": false,
                "DisableRSeqRDateGrouping": false, "DocumentsIsShowRSeqWithDocType": false,
                "ACKOnView": false, "AckOnViewDelay": 5, "DisabledResultsPortalLocations": [],
                "CombineDocViewAndReadColumns": false, "ShowReadColumn": true,
                "ShowAckWhenDisabled": true, "ShowPatNameColumn": false,
                "ShowStudyDescColumn": true, "ShowNotifTypeColumn": false, "ShowAckColumn": true,
                "ShowStudyDateColumn": true, "ShowDateWhenSentColumn": true,
                "IsTraceEnabled": false, "UCSDMode": false, "CompactViewDocumentsDescription": ""
            }),
        ),
        (
            "DocumentsColumnTitle",
            json!({
                "DocPatNameColumnTitle": "Patient Name", "DocViewColumnTitle": "View",
                "DocViewWhenColumnTitle": "Date Sent", "DocStudyDateColTitle": "Study Date",
                "DocStudyDescColTitle": "Study Description", "DocTypeColumnTitle": "Letter Type",
                "DocNotifTypeColumnTitle": "Sent By", "DocReadColumnTitle": "Read",
                "DocAckColumnTitle": "Acknowledged", "OtherDocDateColTitle": "Date"
            }),
        ),
        (
            "DocumentsOther",
            json!({
                "DocViewDateFormat": "EEEE, MMMM d, y", "DocViewBtnText": "View",
                "DocAckBtnText": "Acknowledge", "UnreadTabLabel": "Unread Letters"
            }),
        ),
        (
            "DocumentsHidingEmailNotSending",
            json!({
                "HideRPLetDays": 0, "HideRPLetBizDays": 0, "HideRPLetForever": false,
                "HideAllLettersPriorThisDate": "", "LetterTypesBiradSettings": [],
                "DelayEmailMultiplier": 0, "DelayEmailSendValue": 0
            }),
        ),
    ]
}

/// The keys the API reads today (`grep -rn 'get_str\|get_bool\|get_i64' api/src`, and the
/// setup wizard's `configuration::group_of`), by the group it reads them from.
const API_READS: &[(&str, &[&str])] = &[
    (
        // The setup wizard also stores SERVICE_ACCOUNT_DOMAIN, SERVICE_ACCOUNT_USERNAME and
        // SERVICE_ACCOUNT_PASSWORD here (`group_of`'s fallback), which CorePortal lacks.
        "CorePortal",
        &[
            "ClientName",
            "PublicWebAddress",
            "SessionTimeoutMinutes",
            "WarnBeforeSessionTimeoutMinutes",
            "SessionTimeoutRedirectLink",
            "IsSsoMode",
            "IsCernerOAuthEnabled",
            "DisableSecondaryRecoveryOptions",
            "PortalSqlServerName",
            "PortalSqlDbName",
            "PortalIntegratedSecurity",
            "PortalSqlUserName",
            "PortalSqlUserPwd",
            "PasswordEncriptionTechnique",
            "TestUserSsn",
            "TestUserEmail",
        ],
    ),
    (
        "HistoryPortal",
        &[
            "DefaultHistoryPortalSurvey",
            "HrsAppointmentTimeType",
            "HrsAppointmentTimeValue",
            "HistoryPortalSurveyReminderStartTime",
            "HistoryPortalSurveyReminderEndTime",
            "HistoryPortalBusinessDays",
            "EnableSendingHistoryPortalNotifications",
            "EnableHistoryPortalNotificationsByEmail",
            "EnableHistoryPortalNotificationsBySms",
            "HistoryPortalRemindXDaysBeforeAppt",
            "HistoryPortalRemindUntilXHoursBeforeAppt",
            "EnableSendingIamHereNotifications",
            "EnableIamHereNotificationsByEmail",
            "EnableIamHereNotificationsBySms",
            "HistoryPortalSendIAmHereXHoursBeforeAppointment",
            "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment",
            "HistoryPortalMaxReadyForExamEmail",
            "IsDisabledIamHere",
            "IsHideAppointmentTimeInHistoryPortal",
            "HistoryPortalPatientNameColumnLastNameFirst",
        ],
    ),
    (
        "CoreMagview",
        &[
            "MagViewMode",
            "MagViewPath",
            "LuminaryOneUrl",
            "DataConnectionType",
            "IsDMZMode",
            "ProxyAppWebAddress",
            "MagViewSqlServerName",
            "MagViewSqlDbName",
            "MagViewIntegratedSecurity",
            "MagViewSqlUserName",
            "MagViewSqlUserPwd",
            "IsLinkedToRadView",
            "RadViewPath",
        ],
    ),
    (
        "CoreNotifications",
        &[
            "SMTPUseSSL",
            "SMTPServer",
            "Port",
            "UserName",
            "Password",
            "Timeout",
            "EmailFrom",
            "EmailFromName",
            "AzureTwilioEndpoint",
            "TwilioAccSid",
            "TwilioAuthToken",
            "TwilioFrom",
            "UseSMTPServer",
            "SMTPServerCertificate",
            "UseAltSmtpAcct",
            "EmailEnabled",
            "AdminEmail",
        ],
    ),
    (
        "CoreEmailService",
        &[
            "EmailFrom",
            "EmailFromName",
            "UseSMTPServer",
            "SMTPServer",
            "SMTPServerCertificate",
            "SMTPUseSSL",
            "UseAltSmtpAcct",
            "UserName",
            "Password",
            "Port",
            "Timeout",
            "EmailEnabled",
            "AdminEmail",
            "EmailServiceLoggingMode",
            "EmailServiceMaxRecordsCountToProcess",
            "IsEmailServiceTestMode",
            "IsPortalEnotifyLoggingMode",
            "EmailServiceNotFound",
        ],
    ),
    (
        "CoreSurvey",
        &[
            "SURVEY_SELECT_PATIENT_MODE",
            "SURVEY_ADMIN_PIN",
            "SurveyPerLocation",
            "SearchForPatientUsingAlternateUserIdentifier",
            "AdminPinLength",
            "LocationToMrnColumnMapping",
            "IsInterfaceQueueEnabledForSurveyStart",
            "SurveyStartInterfaceQueuePath",
            "SurveyStartInterfaceQueueMessageType",
            "IsInterfaceQueueEnabledForSurveySubmit",
            "SurveySubmitInterfaceQueuePath",
            "SurveySubmitInterfaceQueueMessageType",
        ],
    ),
    (
        "UserManagement",
        &[
            "UserManagementViewMode",
            "IsImpersonationEnabled",
            "EnableDemoMode",
            "IsAdminPinAndLocationsRestrictionsEnabled",
        ],
    ),
    (
        "License",
        &[
            "Module_Documents",
            "Module_Appointments",
            "Module_MedicalHistory",
        ],
    ),
    (
        "UserAccountPassword",
        &[
            "IDFailMax",
            "ResetKeyExpirationInSeconds",
            "LenNeeded",
            "NumNeeded",
            "UcaseNeeded",
            "SymNeeded",
            "UseComplexityRequirements",
            "ResetPasswordRedirectUrl",
        ],
    ),
    (
        "UserAccountUsernameValidation",
        &["MinUsernameLength", "MaxUsernameLength"],
    ),
    (
        "UserAccountUserAccountVerification",
        &[
            "VerificationAttemptsMax",
            "VerificationCodeRequestsMax",
            "VerificationCodeTimeoutInMinutes",
            "IsPhoneNumberPatientVerificationEnabled",
            "IsPhoneNumberVerificationRequiredForResetPassword",
        ],
    ),
    (
        "UserAccountPatientPortalOptions",
        &["ForgotPasswordValidateDOB"],
    ),
    (
        "DocumentsEssential",
        &[
            "IsTraceEnabled",
            "ShowAckWhenDisabled",
            "ACKOnView",
            "AckOnViewDelay",
            "UCSDMode",
            "CompactViewDocumentsDescription",
            "CombineDocViewAndReadColumns",
            "ShowOtherDocumentsTab",
            "ShowReferringPhysicianLettersWithOtherDocuments",
            "ShowPatNameColumn",
            "ShowDateWhenSentColumn",
            "ShowStudyDateColumn",
            "ShowStudyDescColumn",
            "ShowNotifTypeColumn",
            "ShowReadColumn",
            "ShowAckColumn",
        ],
    ),
    (
        "DocumentsColumnTitle",
        &[
            "DocPatNameColumnTitle",
            "DocViewColumnTitle",
            "DocViewWhenColumnTitle",
            "DocStudyDateColTitle",
            "DocStudyDescColTitle",
            "DocTypeColumnTitle",
            "DocNotifTypeColumnTitle",
            "DocReadColumnTitle",
            "DocAckColumnTitle",
            "OtherDocDateColTitle",
        ],
    ),
    (
        "DocumentsOther",
        &["DocViewBtnText", "DocAckBtnText", "UnreadTabLabel"],
    ),
    (
        "DocumentsHidingEmailNotSending",
        &[
            "LetterTypesBiradSettings",
            "HideAllLettersPriorThisDate",
            "HideRPLetDays",
            "HideRPLetBizDays",
            "HideRPLetForever",
        ],
    ),
    (
        "SurveyGeneral",
        &[
            "DefaultSurvey",
            "IsSurveyPerLocationEnabled",
            "IsSurveySelectPatientMode",
            "SurveyAdminPin",
            "GenerateSummaryReport",
            "IsAddPageNumberToSummaryPdf",
            "PdfPageNumberFontSize",
            "PdfPageNumberAlignment",
            "SummaryPdfHeaderText",
            "IsAddHeaderToAllPagesToSummaryPdf",
            "ShowStartSurveyForLatestStudyOnly",
            "IsDisabledAdvancedPatientsSearch",
            "IsDisabledStartSurveyConfirmation",
            "IsDisabledFinishedTodaySurveysConfirmation",
            "LayoutSurveyTitle",
            "LuminaryOnePatientDetailsSurveyId",
        ],
    ),
    (
        // The API reads the Go Back section from the group it names `SsoConfiguration`.
        "SSO",
        &[
            "ShowBackToMainMenuInSSO",
            "ShowBackToMainMenuAsLinkInSSO",
            "ReturnURL",
            "ShowIconInBackToMainMenuInSSO",
        ],
    ),
];

#[test]
fn the_api_default_documents_are_the_typed_defaults() {
    for (group, doc) in api_defaults() {
        let typed = default_json(group).unwrap_or_else(|| panic!("{group} is not a typed group"));
        for (key, value) in doc.as_object().unwrap() {
            assert_eq!(typed.get(key), Some(value), "{group}.{key}");
        }
    }
}

#[test]
fn every_key_the_api_reads_is_a_field() {
    for (group, keys) in API_READS {
        let typed = default_json(group).unwrap_or_else(|| panic!("{group} is not a typed group"));
        for key in *keys {
            assert!(typed.get(key).is_some(), "{group}.{key}");
        }
    }
}

#[test]
fn the_api_hiding_rows_read_as_typed_rows() {
    // Birad as text or a number (the API takes either), the day counts as numbers, AllowAck
    // absent (= allowed).
    let doc = json!({"LetterTypesBiradSettings": [
        {"Type": "Patient Result Letter", "BiradSettings": [
            {"Birad": "2", "HideLetDays": 3}, {"Birad": 4, "HideLetForever": true}
        ]}
    ]});
    let typed: super::documents_hiding::DocumentsHidingEmailNotSending =
        serde_json::from_value(doc).unwrap();
    let rule = &typed.letter_types_birad_settings[0].birad_settings[0];
    assert_eq!(rule.hide_let_days, 3.0);
    assert!(rule.allow_ack);
    let rule = &typed.letter_types_birad_settings[0].birad_settings[1];
    assert_eq!(rule.birad, "4");
    assert!(rule.hide_let_forever);
}
