// The one door to wasm-core, the crate that holds every rule of the portal. The package is a
// wasm-pack "bundler" build: importing it instantiates the module (top-level await), so the
// rules are ready before the first render and are loaded exactly once. Every page loads it, so it
// carries only what the patient pages, sign-in, registration, recovery, the survey kiosk and
// I Am Here call (issue 22: under 60 KB gzipped); the staff and admin pages' rules are in the
// staff package (lib/wasm-settings.ts), which their routes load first.
export {
  appointmentHeader,
  pageSizes,
  pager,
  maxSearchChars,
  isPinShape,
  pinInput,
  pinLength,
  checkPassword,
  describeHttpError,
  documentColumns,
  documentsRoute,
  defaultSurveyTab,
  embedSuccessPath,
  iamHereShowsDate,
  iamHereShowsWarning,
  languageName,
  localizeDateNames,
  messageTemplateKey,
  messageText,
  letterState,
  pendingLettersAction,
  pendingSurveyAction,
  surveyButton,
  surveyStatusTooltip,
  letterTitle,
  refreshAfterAck,
  viewAction,
  formatAppointment,
  formatAppointmentLong,
  formatUsPhone,
  enumLabel,
  formatDate,
  formatDatePattern,
  menuFor,
  routeRedirect,
  validateLogoWidth,
  readTableState,
  sessionTimerView,
  tableRequest,
  validateChangeMyPassword,
  validateCreateAccount,
  validateSurveyRegistration,
  validateResetPassword,
  validateVerificationCode,
  verificationCodeLength,
  resetLinkRoute,
  phoneVerifyView,
  dobYears,
  validateLogin,
  loginLinks,
  writeTableState,
} from "wasm-core";

export type {
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  RecoverUsernameRequest,
  RecoverUsernameResponse,
  ResetKeyValidation,
  ResetPasswordRequest,
  VerifyPhoneParams,
  RequestCodeResponse,
  VerifyCodeRequest,
  VerifyCodeResponse,
  PhoneVerifyState,
  ApiError,
  AppointmentRange,
  HistoryTab,
  ChangeMyPassword,
  ChangePasswordResult,
  CreateUserRequest, CreateUserResult, UserCreationParams, SurveyRegistration, SurveyEmailCheck, UnsubscribeResult, RegistrationInvitation,
  ConnectionTest,
  ConnectionTestResult,
  CurrentUserName,
  DateFormat,
  DocumentColumn,
  DocumentsLoadResponse,
  DocumentsSettings,
  Letter,
  EmbedError,
  IamHereResponse,
  LetterRef,
  TraceEntry,
  DynamicLabel,
  LabelTranslation,
  NotCompletedLetters,
  PatientSurveyItem,
  PatientSurveysResponse,
  PendingAction,
  SurveyTab,
  ErrorDialog,
  FormCheck,
  FirstManager,
  KeyValue,
  LocationMrnColumn,
  LoginRequest,
  LogoSettings,
  LoginResponse,
  LanguagePreference,
  MainMenuSettings,
  MenuItem,
  ModulePermissions,
  NextAppointment,
  NextAppointmentsRequest,
  NextAppointmentsResponse,
  PasswordCheck,
  PasswordRequirements,
  Permissions,
  PortalConfigured,
  RoleForm,
  RoleRow,
  SessionSettings,
  SessionTimerView,
  SetupConfiguration,
  SurveyQueueRow,
  StatusLookupItem,
  SurveyActions,
  TableRequest,
  TableResponse,
  TableState,
  UserForm,
  UserRow,
  AdminChangePassword,
  ValidationErrors,
} from "wasm-core";

import type { ValidationErrors } from "wasm-core";

/** The messages for one field. wasm-core's results writer (bindings/to_js.rs) hands a map over as
 * a plain object, as server JSON does; a JS Map is read too. */
export function fieldMessages(errors: ValidationErrors | null | undefined, field: string): string[] {
  if (!errors) return [];
  const source = errors as unknown;
  if (source instanceof Map) return (source.get(field) as string[] | undefined) ?? [];
  return ((source as Record<string, string[]>)[field] ?? []).slice();
}

/** Every field name that carries messages. */
export function errorFields(errors: ValidationErrors | null | undefined): string[] {
  if (!errors) return [];
  const source = errors as unknown;
  if (source instanceof Map) return [...source.keys()] as string[];
  return Object.keys(source as Record<string, string[]>);
}

/** The viewer's offset now, in minutes east of UTC: sent with list requests (spec 01 §9). */
export function viewerOffsetMinutes(): number {
  return -new Date().getTimezoneOffset();
}

/** What formatDate needs about the viewer's zone for one instant: minutes east of UTC at that
 * instant, and the zone's short name (e.g. "EST"); both come from the browser, not from a rule. */
export function zoneOf(isoInstant: string): { offsetMinutes: number; zoneAbbr: string } {
  const date = new Date(isoInstant);
  if (Number.isNaN(date.getTime())) return { offsetMinutes: 0, zoneAbbr: "" };
  const zoneAbbr =
    new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
      .formatToParts(date)
      .find((part) => part.type === "timeZoneName")?.value ?? "";
  return { offsetMinutes: -date.getTimezoneOffset(), zoneAbbr };
}

// Surveys (issue 5): skip logic and answer checks over one definition, and the language fallback.
export { SurveyRules, localText, surveyLinkOutcome, surveyNameMaxChars } from "wasm-core";
// The runner under SurveyGeneral (spec 04 §3): numeric keypad per device class, auto advance.
export { numericKeypad, autoAdvance } from "wasm-core";
// Staff start (spec 01 §2.5): its rules are in the staff package (lib/wasm-settings.ts).
export type { CreatePatientRequest, CreateStudyRequest, CreatePatientResult, CreatedPatient } from "wasm-core";
export type {
  Answer,
  SurveyIdentity,
  PinCheckResponse,
  SaveAnswersRequest,
  SaveAnswersResponse,
  StartDecision,
  SurveyDefinition,
  SurveyPage,
  SurveyQuestion,
  SurveyRunState,
  SurveyRunDisplay,
  SurveyVisibility,
  AdminPinResponse,
  GeneratePinRequest,
  GeneratePinResponse,
  RespondentEntitiesRequest,
  RespondentEntitiesResponse,
  RespondentEntity,
  RespondentSearch,
  RespondentSearchResponse,
  Respondent,
  StartOptions,
  SurveyStartSettings,
  SurveyLocation,
} from "wasm-core";
export type { SurveyPackageRow, SurveyUploadFile, SurveyUploadResult } from "wasm-core";
// Settings groups (issue 13): their types come from tsify; their validate and normalize are in the
// second package the settings pages load (lib/wasm-settings.ts).
export type { CoreEmailService, CoreMagview, CoreNotifications, CorePortal, CoreTimerService, HistoryPortal, SurveyGeneral } from "wasm-core";
export type { DocumentsAlternateDocumentTypeDescription, DocumentsColumnTitle, DocumentsEssential, DocumentsHidingEmailNotSending, DocumentsOther, DocumentsPdfPrinters } from "wasm-core";
export type { DbPathTest, FolderPathTest, RadViewPathResult, TestMessage, TestMessageResult, WebAddressQuery } from "wasm-core";
// Portal Core pages (issue 14): user account, login page, other settings, licenses, Luminary One.
export type {
  UserAccountPassword,
  UserAccountPatientPortalOptions,
  UserAccountSwitchUserOptions,
  UserAccountUserAccountVerification,
  UserAccountUsernameValidation,
  LoginPageSettings,
  OtherSettings,
  License,
  LicenseAnswer,
  LicenseUpdate,
  LuminaryOne,
  LuminaryOnePage,
  SaveLabelValues,
  HelpContent,
} from "wasm-core";
export { userMenu } from "wasm-core";
// SSO Management (issue 19): the SSO group and its alternate-id column test.
export type { Sso, SsoTypeChoice, AlternativeIdColumn, AlternativeIdColumnCheck } from "wasm-core";
// Techpad settings (issue 18, spec 04 §3): the thirteen groups and their rows.
export type {
  TechpadGeneral,
  TechpadMaglinkEvents,
  TechpadExamActions,
  SurveyMaglinkIntegrations,
  SurveyPowerscribeIntegrations,
  SurveyWebhookIntegration,
  WebHook,
  TechpadCommentsSettings,
  TechpadDiagramSettings,
  TechpadWorklistSorting,
  TechpadDynamicLabelsPerformExamButtonAliases,
  TechpadDynamicLabelsExamTabsAliases,
  TechpadStatusAliases,
  TechpadTags,
  TechpadResources,
  TechpadExamDynamicLabels,
  TechpadCannedNotes,
  CommentSetting,
  DiagramSetting,
  WorklistSortGroup,
  LabelValue,
  StatusConfig,
  Resource,
  StatusAllowed,
  CannedNote,
} from "wasm-core";
// A settings group on the wire: GET/PUT /api/configurationForm/{name} (components/settings-form).
export type { SettingsEnvelope, SettingsSave } from "wasm-core";
// Staff two-step sign-in (issue 22): the code field's rule and the wire types.
export { validateMfaCode } from "wasm-core";
export type { MfaCodeRequest, MfaEnrolment, MfaVerifyResult, MfaStatus, MfaResetResult } from "wasm-core";
