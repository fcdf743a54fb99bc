// One lazily loaded chunk for the membership recovery pages.
export { ForgotPasswordPage } from "./forgot-password-page";
export { ForgotUsernamePage } from "./forgot-username-page";
export { ResetPasswordPage } from "./reset-password-page";
export { VerifyPhonePage } from "./verify-phone-page";
export { ExpiredLinkPage, PasswordChangedPage, PhoneNotFoundPage, PhoneVerifiedPage, VerifyLinkExpiredPage } from "./info-pages";
