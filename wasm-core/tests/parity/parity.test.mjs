// Runs the shared case tables (../cases/*.json) through the wasm build the web app uses
// (wasm-core/pkg, wasm-pack --target bundler) and expects exactly what the native test expects.
// Run: node --test wasm-core/tests/parity/   (Node 20, no packages).
// Build first: cd wasm-core && wasm-pack build --target bundler --out-dir pkg --profile wasm-release -- --features wasm

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, "..", "..", "pkg");
const casesDir = join(here, "..", "cases");
const wasmPath = join(pkg, "wasm_core_bg.wasm");
const gluePath = join(pkg, "wasm_core_bg.js");

if (!existsSync(wasmPath) || !existsSync(gluePath)) {
  throw new Error(
    `wasm-core/pkg is missing (${wasmPath}). Build it first: cd wasm-core && wasm-pack build ` +
      "--target bundler --out-dir pkg --profile wasm-release -- --features wasm",
  );
}

// The bundler target's wasm imports its glue as the module "./wasm_core_bg.js"; do by hand what
// a bundler does for pkg/wasm_core.js.
const core = await import(pathToFileURL(gluePath).href);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { "./wasm_core_bg.js": core });
core.__wbg_set_wasm(instance.exports);
if (typeof instance.exports.__wbindgen_start === "function") instance.exports.__wbindgen_start();

// The staff package (feature wasm-settings), built beside pkg by scripts/setup.sh: the settings
// groups, the admin and staff pages' rules and the exports only these tests call (issue 22).
const settingsPkg = join(here, "..", "..", "pkg-settings");
const settings = await import(pathToFileURL(join(settingsPkg, "wasm_core_settings_bg.js")).href);
{
  const wasm = readFileSync(join(settingsPkg, "wasm_core_settings_bg.wasm"));
  const { instance: si } = await WebAssembly.instantiate(wasm, { "./wasm_core_settings_bg.js": settings });
  settings.__wbg_set_wasm(si.exports);
  if (typeof si.exports.__wbindgen_start === "function") si.exports.__wbindgen_start();
}

// Absent and undefined fields compare equal to null ones (serde_json writes null for None).
function normalise(value) {
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === "object") {
    assert.ok(!(value instanceof Map), "maps must cross as plain objects");
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}

// A settings group's rules by name, as tests/cases.rs's settings_fn.
function settingsFn(i) {
  switch (i.fn) {
    case "validate":
      return settings.validateSettings(i.group, i.doc);
    case "hidden":
      return settings.hiddenSettingsFields(i.group, i.doc);
    case "disabled":
      return settings.disabledSettingsFields(i.group, i.doc);
    case "edit": {
      const doc = settings.applySettingsEdit(i.group, i.doc, i.field);
      return Object.fromEntries(i.pick.map((k) => [k, doc[k]]));
    }
  }
  throw new Error(`unknown fn ${i.fn}`);
}

const runners = {
  "password.json": (i) =>
    "repeat" in i ? settings.validatePasswordRepeat(i.password, i.repeat) : core.checkPassword(i.password, i.requirements),
  "dates.json": (i) => {
    switch (i.fn) {
      case "formatDate":
        return core.formatDate(i.iso, i.format, i.offsetMinutes, i.zoneAbbr);
      case "formatAppointment":
        return core.formatAppointment(i.iso, i.hideTime, i.offsetMinutes);
      case "appointmentHeader":
        return core.appointmentHeader(i.hideTime);
      case "localizeDateNames":
        return core.localizeDateNames(i.formatted, i.names, i.inSentence);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "table_state.json": (i) => {
    switch (i.fn) {
      case "read":
        return core.readTableState(i.query, i.listId, i.defaults);
      case "write":
        return core.writeTableState(i.query, i.listId, i.state);
      case "request":
        return core.tableRequest(i.state);
      case "pager":
        return core.pager(i.pageIndex, i.pageSize, i.rowCount);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "menu.json": (i) => core.menuFor(i.perms, i.modules),
  "route_access.json": (i) => core.routeRedirect(i.perms, i.modules, i.path) ?? null,
  "logo.json": (i) => core.validateLogoWidth(i.value),
  "login.json": (i) => core.validateLogin(i.req, i.askUsername),
  "login_links.json": (i) => core.loginLinks(i.patientDoor, i.settings, i.askUsername),
  "http_error.json": (i) => core.describeHttpError(i.status, i.body),
  "history_portal.json": (i) => {
    switch (i.fn) {
      case "historyTab":
        return settings.historyTab(i.listId);
      case "appointmentRange":
        return settings.appointmentRange(i.mode, i.from, i.to, i.nowIso, i.offsetMinutes);
      case "localDate":
        return settings.localDate(i.nowIso, i.offsetMinutes);
      case "surveyActions":
        return settings.surveyActions(i.row, i.maxReadyForExam, i.nowIso, i.offsetMinutes);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "medical_history.json": (i) => {
    switch (i.fn) {
      case "surveyButton":
        return core.surveyButton(i.statusKey, i.dateCompleted ?? undefined, i.appointment ?? undefined, i.now, i.surveyQueueId, i.surveyLogId ?? undefined);
      case "surveyTab":
        return settings.surveyTab(i.statusKey) ?? null;
      case "defaultTab":
        return core.defaultSurveyTab(i.statusKeys);
      case "statusTooltip":
        return core.surveyStatusTooltip(i.statusKey);
      case "pendingSurvey":
        return core.pendingSurveyAction(i.statusKey, i.surveyName, i.surveyQueueId, i.label) ?? null;
      case "pendingLetters":
        return core.pendingLettersAction(i.unread, i.label) ?? null;
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "recovery.json": (i) => {
    switch (i.fn) {
      case "resetForm":
        return core.validateResetPassword(i.req, i.rules);
      case "resetRoute":
        return core.resetLinkRoute(i.v, i.area, i.pwdReset, i.id) ?? null;
      case "phoneView":
        return core.phoneVerifyView(i.s);
      case "years": {
        const y = Array.from(core.dobYears(i.current));
        return { count: y.length, first: y[0], last: y[y.length - 1] };
      }
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "membership.json": (i) => {
    switch (i.fn) {
      // The user administration's rules: the admin pages' package (pkg-settings).
      case "user":
        return settings.validateUser(i.user);
      case "role":
        return settings.validateRole(i.role);
      case "create":
        return core.validateCreateAccount(i.req, i.rules);
      case "survey":
        return core.validateSurveyRegistration(i.reg, i.newPerson);
      case "code":
        return core.validateVerificationCode(i.code);
      case "change":
        return core.validateChangeMyPassword(i.req, i.rules);
      case "phone":
        return core.formatUsPhone(i.value);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "iam_here.json": (i) => {
    switch (i.fn) {
      case "mode":
        return settings.iamHereMode(i.disabled, i.found, i.status, i.startsAt, i.now, i.expireHours);
      case "showsDate":
        return core.iamHereShowsDate(i.mode);
      case "showsWarning":
        return core.iamHereShowsWarning(i.mode);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  // The settings groups: the admin pages' own package (pkg-settings), the same rules.
  "settings.json": (i) => settingsFn(i),
  // The techpad settings pages' rules (pkg-settings), beside their groups' rules.
  "techpad.json": (i) => {
    switch (i.fn) {
      case "toggleExamAction":
        return settings.toggleExamAction(i.actions, i.className, i.on) ?? null;
      case "newResource":
        return settings.newTechpadResource(i.statuses);
      case "splitAtCapitals":
        return settings.splitAtCapitals(i.name);
      case "validatePdfFormUpload":
        return settings.validatePdfFormUpload(i.name, i.fileName, i.size);
      case "formatPdfFormSize":
        return settings.formatPdfFormSize(i.bytes);
      default:
        return settingsFn(i);
    }
  },
  // The results hold: the admin pages' package (pkg-settings).
  "documents_hold.json": (i) => settings.resultsHold(i.rules, i.letter, i.clinic, i.now),
  // The RSeq / RDate grouping of a letters list: the same package.
  "documents_releases.json": (i) => settings.shownReleases(i.settings, i.letters, i.offsetMinutes),
  "labels.json": (i) => {
    switch (i.fn) {
      case "labelText":
        return settings.labelText(i.translations.map(([language, value]) => ({ Language: language, Value: value })), i.language, i.default);
      case "languageName":
        return core.languageName(i.language);
      case "enumLabel":
        return core.enumLabel(i.value);
      case "messageTemplateKey":
        return core.messageTemplateKey(i.message) ?? null;
      case "messageText":
        return core.messageText(i.message, i.text);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "session_timer.json": (i) => core.sessionTimerView(i.secondsLeft, i.timeoutMinutes, i.warnMinutes),
  // The setup wizard's rules: the admin pages' package (pkg-settings).
  "setup.json": (i) => {
    switch (i.fn) {
      case "validate":
        return settings.validateSetup(i.cfg);
      case "normalize":
        return settings.normalizeSetup(i.cfg);
      case "testUrl":
        return settings.testUrl(i.url);
      case "dmz":
        return settings.dmzModeFor(i.type, i.dmz);
      case "serviceAccount":
        return settings.normalizeServiceAccount(i.name);
      case "publicAddress":
        return settings.normalizePublicAddress(i.url);
      case "firstManager":
        return settings.validateFirstManager(i.manager, i.rules, i.usernameTaken);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  // The SSO Management page's type mapping: the admin pages' package (pkg-settings).
  "sso_type.json": (i) => {
    switch (i.fn) {
      case "load":
        return settings.ssoTypeOf(i.integrationType);
      case "save":
        return settings.integrationTypeOf(i.choice);
      case "savePath":
        return settings.integrationTypeForSave(i.ssoType, i.integrationType);
    }
  },
  "embed.json": (i) => core.embedSuccessPath(i.page, i.clientId, i.token) ?? null,
  "documents.json": (i) => {
    switch (i.fn) {
      case "letterState":
        return core.letterState(i.facts, i.viewer, i.offsetMinutes);
      case "viewAction":
        return core.viewAction(i.facts, i.viewer);
      case "refreshAfterAck":
        return core.refreshAfterAck(i.isTraceEnabled, i.isProgramManager);
      case "documentColumns":
        return core.documentColumns(i.settings);
      case "letterTitle":
        return core.letterTitle(i.patientName, i.patientId, i.studyDate ?? undefined, i.procedure, i.texts);
      case "documentsRoute":
        return core.documentsRoute(i.segments, i.unreadCount ?? undefined, i.showOtherTab);
      default:
        throw new Error(`unknown fn ${i.fn}`);
    }
  },
  "survey_start.json": (i) => {
    if (i.fn === "choose") return settings.chooseSurvey(i.choice) ?? null;
    if (i.fn === "search") return settings.respondentSearchError(i.search);
    if (i.fn === "adminPin") return settings.adminPinReady(i.pin, i.length);
    throw new Error(`unknown fn ${i.fn}`);
  },
  "survey_pin.json": (i) => {
    if (i.fn === "shape") return core.isPinShape(i.pin);
    if (i.fn === "input") return core.pinInput(i.typed);
    throw new Error(`unknown fn ${i.fn}`);
  },
  "create_patient.json": (i) => {
    if (i.fn === "patient") return settings.validateCreatePatient(i.req, i.today);
    if (i.fn === "study") return settings.validateCreateStudy(i.req);
    if (i.fn === "message") return settings.patientCreatedMessage(i.mrn);
    if (i.fn === "prefill") return settings.createPatientPrefill(i.search);
    throw new Error(`unknown fn ${i.fn}`);
  },
  "survey_link.json": (i) => core.surveyLinkOutcome(i.identity),
  "survey.json": (i) => {
    if (i.fn === "localText") return core.localText(i.texts, i.lang);
    const rules = new core.SurveyRules(JSON.parse(readFileSync(join(here, "..", "surveys", `${i.survey}.json`), "utf8")));
    try {
      switch (i.fn) {
        case "visibility":
          return rules.visibility(i.answers);
        case "validate":
          return rules.validate(i.answers, i.page ?? undefined);
        case "clean":
          return rules.cleanAnswers(i.answers);
        default:
          throw new Error(`unknown fn ${i.fn}`);
      }
    } finally {
      rules.free();
    }
  },
};

const files = readdirSync(casesDir).filter((f) => f.endsWith(".json")).sort();

test("every case table has a runner", () => {
  assert.deepEqual(files, Object.keys(runners).sort());
});

let total = 0;
for (const file of files) {
  const cases = JSON.parse(readFileSync(join(casesDir, file), "utf8"));
  assert.ok(cases.length > 0, `${file} has no cases`);
  total += cases.length;
  for (const { name, input, expected } of cases) {
    test(`${file} / ${name}`, () => {
      assert.deepEqual(normalise(runners[file](input)), normalise(expected));
    });
  }
}

test("the tables hold enough cases", () => {
  assert.ok(total >= 60, `only ${total} shared cases`);
});

// Input from the page is not always well formed: the exports return safe values, never throw.
test("malformed arguments give safe results", () => {
  assert.deepEqual(normalise(core.validateLogin(null, false)), {
    usernameOrEmail: ["Username or email is required"],
    password: ["Password is required"],
  });
  assert.equal(core.formatDate("2026-03-02T19:05:09Z", "NoSuchFormat", 0, ""), "");
  assert.deepEqual(normalise(core.menuFor(undefined, 42)), []);
  assert.deepEqual(normalise(core.checkPassword("x", "nonsense")), { IsValid: true, Requirements: [], Errors: [] });
  assert.equal(core.writeTableState("?a=1", "all", { PageIndex: -3 }), "?a=1");
  assert.equal(core.describeHttpError(70000, "").Title, "Server Error");
  const hostile = new Proxy({}, { ownKeys() { throw new Error("no keys"); }, get() { throw new Error("no get"); } });
  assert.equal(core.writeTableState("", "all", { PageIndex: 2, PageSize: 10, SortDirection: "asc", Search: "", Filters: hostile }), "all_page=3");
  assert.deepEqual(normalise(core.validateLogin(hostile, false)), {
    usernameOrEmail: ["Username or email is required"],
    password: ["Password is required"],
  });
});

// Kiosk tabs run for hours: the allocator (talc, issue 22) must give freed memory back for reuse.
// Each call allocates a few hundred kB (the body, its parse, the result): 500 calls would grow a
// leaking allocator's memory by over 100 MB.
test("memory is freed and reused", () => {
  const body = JSON.stringify({ Title: "T", Message: "m".repeat(50_000), Errors: { f: ["x".repeat(20_000)] } });
  core.describeHttpError(400, body);
  const before = instance.exports.memory.buffer.byteLength;
  for (let n = 0; n < 500; n++) assert.equal(core.describeHttpError(400, body).Title, "T");
  assert.ok(instance.exports.memory.buffer.byteLength <= before + 4 * 1024 * 1024, "memory kept growing");
});

// The case tables compare with undefined, null and a missing field alike; the page tells them
// apart (`"SortColumn" in request`, `=== null`). The results' writer (bindings/to_js.rs, issue 22)
// keeps the shapes serde-wasm-bindgen wrote: a `None` field is present as undefined unless serde
// skips it, the pager's gaps are null, enums are their names, maps and structs plain objects.
test("results keep their exact shapes", () => {
  const request = core.tableRequest({ PageIndex: 0, PageSize: 10, SortDirection: "asc", Search: "", Filters: {} });
  assert.ok(Object.hasOwn(request, "SortColumn") && request.SortColumn === undefined);
  const dialog = core.describeHttpError(404, "");
  assert.ok(!Object.hasOwn(dialog, "RedirectTo") && !Object.hasOwn(dialog, "ErrorId"));
  assert.equal(dialog.Kind, "Dialog");
  assert.deepEqual(core.pager(9, 10, 200).Pages, [0, null, 7, 8, 9, 10, 11, null, 19]);
  const errors = core.validateLogin({}, false);
  assert.equal(Object.getPrototypeOf(errors), Object.prototype);
  assert.ok(Array.isArray(errors.password));
  assert.equal(Object.getPrototypeOf(core.checkPassword("x", {})), Object.prototype);
});
