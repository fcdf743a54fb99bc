import { Navigate, useLocation, type RouteObject } from "react-router";

/** Redirects the ChangePassword route name to change-password, keeping the query (spec 02 §2.1). */
function ToChangePassword() {
  const { pathname, search } = useLocation();
  return <Navigate to={`${pathname.replace(/ChangePassword$/, "change-password")}${search}`} replace />;
}

const pages = () => import("./recovery-pages");

/** The password-reset, username and phone routes under /patient, /staff and /membership. */
export const recoveryRoutes: RouteObject[] = ["patient", "staff", "membership"].flatMap((base) => [
  { path: `${base}/forgot-password`, lazy: () => pages().then((m) => ({ Component: m.ForgotPasswordPage })) },
  { path: `${base}/forgot-username`, lazy: () => pages().then((m) => ({ Component: m.ForgotUsernamePage })) },
  { path: `${base}/change-password`, lazy: () => pages().then((m) => ({ Component: m.ResetPasswordPage })) },
  { path: `${base}/ChangePassword`, element: <ToChangePassword /> },
  { path: `${base}/password-changed`, lazy: () => pages().then((m) => ({ Component: m.PasswordChangedPage })) },
  { path: `${base}/expired-link`, lazy: () => pages().then((m) => ({ Component: m.ExpiredLinkPage })) },
  { path: `${base}/phone-not-found`, lazy: () => pages().then((m) => ({ Component: m.PhoneNotFoundPage })) },
  { path: `${base}/verify-link-expired`, lazy: () => pages().then((m) => ({ Component: m.VerifyLinkExpiredPage })) },
  { path: `${base}/phone-verified`, lazy: () => pages().then((m) => ({ Component: m.PhoneVerifiedPage })) },
  ...["forgot-password-verify-phone", "create-verify-phone", "verify-phone"].map((p) => ({
    path: `${base}/${p}`,
    lazy: () => pages().then((m) => ({ Component: m.VerifyPhonePage })),
  })),
]);
