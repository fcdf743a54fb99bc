//! GET /api/userApi/EmbedError (spec 01 §2.11): sanitised message and the SSO go-back section.

use api_tests::*;

#[tokio::test]
async fn message_by_error_id_and_no_go_back_by_default() {
    let server = TestServer::demo().await;
    let body = server
        .client()
        .get_json("/api/userApi/EmbedError?mode=sso&id=client7&errorId=TokenExpired")
        .await;
    assert!(
        body["Message"]
            .as_str()
            .unwrap()
            .contains("Your link has expired."),
        "{body}"
    );
    assert_eq!(body["ShowBackToMainMenuInSSO"], false);
    assert_eq!(body["GoBackSectionLink"], "");
    let general = server
        .client()
        .get_json("/api/userApi/EmbedError?mode=other&id=1")
        .await;
    assert!(general["Message"]
        .as_str()
        .unwrap()
        .contains("Something went wrong."));
}

#[tokio::test]
async fn go_back_link_from_the_sso_configuration_and_only_web_addresses() {
    let server = TestServer::demo().await;
    server
        .execute_sql("UPDATE settings SET body = '{\"ShowBackToMainMenuInSSO\":true,\"ShowBackToMainMenuAsLinkInSSO\":true,\"ShowIconInBackToMainMenuInSSO\":true,\"ReturnURL\":\"https://ehr.example.com/menu\"}' WHERE group_name = 'SSO'")
        .await;
    let body = server
        .client()
        .get_json("/api/userApi/EmbedError?mode=sso&id=c&errorId=x")
        .await;
    assert_eq!(body["ShowBackToMainMenuInSSO"], true);
    assert_eq!(body["ShowBackToMainMenuAsLinkInSSO"], true);
    assert_eq!(body["ShowIconInBackToMainMenuInSSO"], true);
    assert_eq!(body["GoBackSectionText"], "Back to main menu");
    assert_eq!(body["GoBackSectionLink"], "https://ehr.example.com/menu");
    server
        .execute_sql("UPDATE settings SET body = '{\"ShowBackToMainMenuInSSO\":true,\"ShowBackToMainMenuAsLinkInSSO\":true,\"ReturnURL\":\"javascript:alert(1)\"}' WHERE group_name = 'SSO'")
        .await;
    let hostile = server
        .client()
        .get_json("/api/userApi/EmbedError?mode=sso&id=c&errorId=x")
        .await;
    assert_eq!(hostile["ShowBackToMainMenuAsLinkInSSO"], false);
    assert_eq!(hostile["ReturnUrl"], "");
    assert_eq!(hostile["GoBackSectionLink"], "", "{hostile}");
}
