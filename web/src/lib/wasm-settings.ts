// The staff package (wasm-core feature `wasm-settings`, pkg-settings): the admin pages' rules (the
// settings groups, the setup wizard, the user administration) and the staff pages' rules (History
// Portal, Audit Logs, the kiosk's staff start and create-patient forms, survey uploads). A second
// wasm package that only those pages load, on first use (their routes wait for
// loadSettingsRules), so the patient pages and the kiosk never download it (issue 22). The same
// Rust functions run on the server before every save.
import type {
  DynamicLabel,
  FirstManager,
  FormCheck,
  PasswordRequirements,
  Resource,
  RoleForm,
  SetupConfiguration,
  SetupNormalized,
  SsoTypeChoice,
  SyncProgress,
  SyncView,
  TokenGroup,
  UsageRange,
  UserForm,
  ValidationErrors,
} from "wasm-core";

type SettingsRules = typeof import("wasm-core-settings");

let loading: Promise<SettingsRules> | undefined;
let loaded: SettingsRules | undefined;

/** Loads the settings package once; a settings page waits for it before it renders its form
 * (components/settings-form loads it beside the group; the setup wizard's and the user
 * administration's routes load it with their page). */
export function loadSettingsRules(): Promise<SettingsRules> {
  loading ??= import("wasm-core-settings").then((rules) => (loaded = rules));
  return loading;
}

function rules(): SettingsRules {
  if (!loaded) throw new Error("The settings rules are not loaded yet (loadSettingsRules)");
  return loaded;
}

/** Field -> messages for `doc` as settings group `name` (as the server checks it). */
export function validateSettings(name: string, doc: object): ValidationErrors {
  return rules().validateSettings(name, doc);
}

/** `doc` after the user changed `field`: group `name`'s rules for that edit (a toggle machine's
 * moved switch), then its derived rules (fields a choice forces). */
export function applySettingsEdit(name: string, doc: object, field: string): object {
  return rules().applySettingsEdit(name, doc, field);
}

/** The setup wizard's configuration checked as the settings groups it is stored in, each message
 * under the wizard's field (the check the server's settings engine runs when the wizard saves). */
export function validateSetupGroups(cfg: object): ValidationErrors {
  return rules().validateSetupGroups(cfg);
}

/** The fields of group `name` the page does not show for the values in `doc` (spec 03 §2: the
 * login and password only for SQL authentication, the other MagView mode's fields ...). */
export function hiddenSettingsFields(name: string, doc: object): string[] {
  return rules().hiddenSettingsFields(name, doc);
}

/** The fields of group `name` the page shows disabled for the values in `doc` (spec 03 §4: the
 * days fields while Hide forever is ticked; spec 04 §4: a Maglink queue's path and type while its
 * switch is off; list rows as `List.{i}.Field`). */
export function disabledSettingsFields(name: string, doc: object): string[] {
  return rules().disabledSettingsFields(name, doc);
}

// The techpad settings pages (spec 04 §4).

/** `actions` (class names joined with ';') with `className` ticked or unticked; a null field
 * stays null (the toggle is ignored). */
export function toggleExamAction(actions: string | null | undefined, className: string, on: boolean): string | undefined {
  return rules().toggleExamAction(actions ?? undefined, className, on);
}

/** The class names ticked in `actions`. */
export function splitExamActions(actions: string): string[] {
  return rules().splitExamActions(actions);
}

/** A new resource: every one of `statuses` allowed, not single-use, an empty label. */
export function newTechpadResource(statuses: string[]): Resource {
  return rules().newTechpadResource(statuses);
}

/** An exam dynamic label's name as shown, split at capital letters. */
export function splitAtCapitals(name: string): string {
  return rules().splitAtCapitals(name);
}

/** spec 04 §2 pdf-forms: the upload form's checks (Name, File), as the server runs them. */
export function validatePdfFormUpload(name: string, fileName: string, size: number): ValidationErrors {
  return rules().validatePdfFormUpload(name, fileName, size);
}

/** A PDF form's size as the list shows it (B, KB, MB). */
export function formatPdfFormSize(bytes: number): string {
  return rules().formatPdfFormSize(bytes);
}

/** The address the Public Web Address test calls (spec 03 §5, §7): http:// in front when no
 * scheme is given, a trailing slash, then api/configuration/TestPublicWebAddress. */
export function publicWebAddressTestUrl(address: string): string {
  return rules().publicWebAddressTestUrl(address);
}

/** The address a web address test sends (spec 03 §5: a trailing slash added). */
export function webAddressTestUrl(address: string): string {
  return rules().webAddressTestUrl(address);
}

/** The New Label form's messages (Key, Title, Category, one per language); `existingKeys` the
 * keys in use (Dynamic Labels Management, spec 03 §2, §5). */
export function validateNewLabel(label: DynamicLabel, existingKeys: string[]): ValidationErrors {
  return rules().validateNewLabel(label, existingKeys);
}

/** The edited label table's messages, under `{Key}.{language}` and `{Key}.Title`. */
export function validateLabelEdits(labels: DynamicLabel[]): ValidationErrors {
  return rules().validateLabelEdits(labels);
}

/** The label categories (one tab each) and the six languages in the spec's order. */
export function labelCategories(): string[] {
  return rules().labelCategories();
}

export function labelLanguages(): string[] {
  return rules().labelLanguages();
}

/** The five translated languages (name as the API takes it, and code); English is the
 * template or the label itself. */
export function translatedLanguages(): { Name: string; Code: string }[] {
  return rules().translatedLanguages();
}

/** License Management's rows: module key, label, whether the administrator may toggle it. */
export function licenseModules(): { Key: string; Label: string; CanToggle: boolean }[] {
  return rules().licenseModules();
}

/** The 'Action error' dialog's title of a service action (spec 03 §8): 'Stop error' ... */
export function serviceActionErrorTitle(action: string): string {
  return rules().serviceActionErrorTitle(action);
}

// The setup wizard (spec 02 §4, §5).

/** The wizard's checks of a configuration before it is saved (field messages and the toast). */
export function validateSetup(cfg: SetupConfiguration): FormCheck {
  return rules().validateSetup(cfg);
}

/** The normalised fields only; `{...cfg, ...normalizeSetup(cfg)}` is the configuration as saved. */
export function normalizeSetup(cfg: SetupConfiguration): SetupNormalized {
  return rules().normalizeSetup(cfg);
}

/** The address a test button calls for `url`. */
export function testUrl(url: string): string {
  return rules().testUrl(url);
}

/** The DMZ switch as a data connection type allows it (FoxPro forces it off). */
export function dmzModeFor(dataConnectionType: string, isDmzMode: boolean): boolean {
  return rules().dmzModeFor(dataConnectionType, isDmzMode);
}

/** The first Program manager's account as the server checks it (`rules` null while the password
 * rules are not loaded). */
export function validateFirstManager(
  manager: Partial<FirstManager>,
  passwordRules: PasswordRequirements | null | undefined,
  usernameTaken: boolean,
): ValidationErrors {
  return rules().validateFirstManager(manager, passwordRules, usernameTaken);
}

// The user administration (spec 02 §5).

/** A user form as the server checks it (field messages and the toast). */
export function validateUser(user: UserForm): FormCheck {
  return rules().validateUser(user);
}

/** A role form as the server checks it. */
export function validateRole(role: RoleForm): ValidationErrors {
  return rules().validateRole(role);
}

// SSO Management (spec 03 §4).

/** The SSO type, key type and 'with service request' box for a stored IntegrationType. */
export function ssoTypeOf(integrationType: string): SsoTypeChoice {
  return rules().ssoTypeOf(integrationType);
}

/** The IntegrationType stored for the page's choice. */
export function integrationTypeOf(choice: SsoTypeChoice): string {
  return rules().integrationTypeOf(choice);
}

/** The add-theme modal's messages under "Name" (spec 04 §5); `existingNames` the themes' names. */
export function validateNewTheme(name: string, existingNames: string[]): ValidationErrors {
  return rules().validateNewTheme(name, existingNames);
}

// Notification Templates and the Site Usage Report (spec 03 §2, §5, §9).

/** The token help modal's groups (General, Patient, Study, History Portal, Email Service). */
export function noticeTokenGroups(): TokenGroup[] {
  return rules().noticeTokenGroups();
}

/** The notices a portal template can be for. */
export function portalTemplateTypes(): string[] {
  return rules().portalTemplateTypes();
}

/** An imaging-system template as the server checks it (Subject, Content; unknown tokens named). */
export function validateEmailLetter(values: { Subject: string; Content: string }): ValidationErrors {
  return rules().validateEmailLetter(values.Subject ?? "", values.Content ?? "");
}

/** A portal template as the server checks it (Name, Subject, Body, Type; unknown tokens named). */
export function validatePortalTemplate(values: { Name: string; Subject: string; Body: string; Type: string }): ValidationErrors {
  return rules().validatePortalTemplate(values.Name ?? "", values.Subject ?? "", values.Body ?? "", values.Type ?? "");
}

/** A template's text in one language as the server checks it (Subject, Body; the English
 * template's tokens kept); `english` is the English Subject and Body. */
export function validateTranslation(values: { Type: string; Language: string; Subject: string; Body: string }, english: string): ValidationErrors {
  return rules().validateTranslation(values.Type, values.Language, values.Subject ?? "", values.Body ?? "", english);
}

/** The template as the demo patient receives it: the notifications engine's own rendering. */
export function previewNotice(subject: string, body: string): { Subject: string; Text: string; Html: string } {
  return rules().previewNotice(subject, body);
}

/** The summary's range from the address (the previous full week when missing or wrong). */
export function usageRange(dateFrom: string, dateTo: string, nowMs: number, offsetMinutes: number): UsageRange {
  return rules().usageRange(dateFrom, dateTo, nowMs, offsetMinutes);
}

/** The details page's day (DD/MM/YYYY; today when wrong): its start and the next day's start. */
export function usageDetailsRange(date: string, nowMs: number, offsetMinutes: number): UsageRange {
  return rules().usageDetailsRange(date, nowMs, offsetMinutes);
}

/** A YYYY-MM-DD day as the details page's DD/MM/YYYY query. */
export function usageDetailsDate(isoDay: string): string {
  return rules().usageDetailsDate(isoDay);
}

// Release sync (spec 03 §2 release-sync, §4, §9).

/** The status text, the button rules and the bar's label for the last progress answer (null
 * while the initial check runs); `userChecked`: it followed the user's Sync. */
export function releaseSyncView(progress: SyncProgress | null, userChecked: boolean): SyncView {
  return rules().releaseSyncView(progress, userChecked);
}

/** How often the progress is re-polled while a sync runs (5000 ms). */
export function releaseSyncPollMs(): number {
  return rules().releaseSyncPollMs();
}

// Staff pages' rules (issue 22: moved out of the package every page loads). Each has the
// signature wasm-bindgen generated for it.

// History Portal (spec 01 §2.6): the tab of a list id, the date picker's range, a row's buttons.
export const historyTab: SettingsRules["historyTab"] = (listId) => rules().historyTab(listId);
export const appointmentRange: SettingsRules["appointmentRange"] = (...a) => rules().appointmentRange(...a);
export const surveyActions: SettingsRules["surveyActions"] = (...a) => rules().surveyActions(...a);
/** The viewer's local date (YYYY-MM-DD) at an instant: the create-patient form's "today". */
export const localDate: SettingsRules["localDate"] = (...a) => rules().localDate(...a);

// Audit Logs (spec 01 §2.7, §5): the typeahead and Apply rules.
export const patientSearchError: SettingsRules["patientSearchError"] = (text) => rules().patientSearchError(text);
export const patientLogFilterReady: SettingsRules["patientLogFilterReady"] = (patient) => rules().patientLogFilterReady(patient);

// The kiosk's staff start (spec 01 §2.5): survey choice, search and PIN checks, create a patient
// or a study.
export const chooseSurvey: SettingsRules["chooseSurvey"] = (choice) => rules().chooseSurvey(choice);
export const respondentSearchError: SettingsRules["respondentSearchError"] = (search) => rules().respondentSearchError(search);
export const adminPinReady: SettingsRules["adminPinReady"] = (...a) => rules().adminPinReady(...a);
export const createPatientPrefill: SettingsRules["createPatientPrefill"] = (search) => rules().createPatientPrefill(search);
export const validateCreatePatient: SettingsRules["validateCreatePatient"] = (...a) => rules().validateCreatePatient(...a);
export const validateCreateStudy: SettingsRules["validateCreateStudy"] = (req) => rules().validateCreateStudy(req);
export const patientCreatedMessage: SettingsRules["patientCreatedMessage"] = (mrn) => rules().patientCreatedMessage(mrn);

// Survey uploads (spec 04): the report template types and the default file name pattern.
export const reportTypes: SettingsRules["reportTypes"] = () => rules().reportTypes();
export const defaultResultFileNamePattern: SettingsRules["defaultResultFileNamePattern"] = () => rules().defaultResultFileNamePattern();
