import { useEffect, useId, useSyncExternalStore } from "react";
import { api } from "../lib/api-client";
import english from "virtual:label-english";
import { languageName, localizeDateNames, messageTemplateKey, messageText, type LanguagePreference } from "../lib/wasm";

/** The six languages of spec 03 §9: the name the API takes, the name shown in the switch (in
 * that language), and the BCP 47 tag set as <html lang> (Chinese is Simplified). */
export const LANGUAGE_CHOICES: { name: string; label: string; tag: string }[] = [
  { name: "english", label: "English", tag: "en" },
  { name: "spanish", label: "Español", tag: "es" },
  { name: "chinese", label: "中文（简体）", tag: "zh-Hans" },
  { name: "cambodian", label: "ភាសាខ្មែរ", tag: "km" },
  { name: "vietnamese", label: "Tiếng Việt", tag: "vi" },
  { name: "tagalog", label: "Tagalog", tag: "tl" },
];

const STORAGE_KEY = "portal.language";
/** The kiosk keeps its patient's choice for that tab's session only (see `startKioskSession`). */
const KIOSK_KEY = "portal.kiosk-language";

/** The first of the browser's languages that is one of the six (wasm-core languageName maps a
 * tag to a name and answers English for any other), else English. */
export function browserLanguage(tags: readonly string[] = navigator.languages ?? [navigator.language]): string {
  for (const tag of tags) {
    const name = languageName(tag);
    if (name !== "english" || tag.toLowerCase().startsWith("en")) return name;
  }
  return "english";
}

/** Scripts whose glyphs most systems lack: their Noto subsets (@fontsource, self-hosted) load
 * only when the language is chosen, so an English reader downloads none of them. */
const FONTS: Record<string, () => Promise<unknown>> = {
  cambodian: () => Promise.all([import("@fontsource/noto-sans-khmer/400.css"), import("@fontsource/noto-sans-khmer/600.css")]),
  // One weight: each Noto Sans SC weight is ~100 unicode-range faces (~50 KB gzip of CSS alone).
  chinese: () => import("@fontsource/noto-sans-sc/400.css"),
};

/** <html lang> and the language's font follow the chosen language. */
function applyToDocument(language: string) {
  document.documentElement.lang = LANGUAGE_CHOICES.find((l) => l.name === language)?.tag ?? "en";
  void FONTS[language]?.().catch(() => {
    // Without the web font the system's font (or none) draws the script; the text stays.
  });
}

/** Where a choice is remembered besides this browser: the signed-in patient's record on the
 * server, or (on a kiosk) nowhere beyond the kiosk session. Set by the session. */
let rememberOnServer = false;
let kiosk = false;
/** A language picked on a sign-in page (before the session): the patient's new choice. */
let pickedSignedOut = false;

let byEnglish: Map<string, string> | null = null;
/** English text -> key of the shipped `Msg_` labels (the wasm-core messages). */
function messageKeys(): Map<string, string> {
  if (!byEnglish) {
    byEnglish = new Map(Object.entries(english).filter(([key]) => key.startsWith("Msg_")).map(([key, text]) => [text, key]));
  }
  return byEnglish;
}
/** The month and weekday name labels, full and short (wasm-core/labels/dates.json). */
const DATE_NAME_KEYS = Object.keys(english).filter((key) => /^Date_(Month|Weekday)(Short)?_\d+$/.test(key));
type Snapshot = { language: string; values: Record<string, string> };
function initialLanguage(): string {
  const kept = sessionStorage.getItem(KIOSK_KEY) ?? localStorage.getItem(STORAGE_KEY);
  return kept ? languageName(kept) : browserLanguage();
}
let snapshot: Snapshot = { language: initialLanguage(), values: {} };
applyToDocument(snapshot.language);
let loadedFor: string | null = null;
const listeners = new Set<() => void>();

function publish(next: Snapshot) {
  if (next.language !== snapshot.language) applyToDocument(next.language);
  snapshot = next;
  listeners.forEach((l) => l());
}

async function load(language: string) {
  loadedFor = language;
  try {
    const values = await api.get<Record<string, string>>(`/api/Configuration/LoadLabelValues?language=${encodeURIComponent(language)}`, {
      report: false,
    });
    if (loadedFor === language) publish({ language, values });
  } catch {
    // Labels fall back to the English defaults written at each use.
  }
}

/** Reads the current language's texts again (after Dynamic Labels Management saved some), so
 * the pages that use the keys show the new texts at once. */
export function reloadLabels(): Promise<void> {
  return load(snapshot.language);
}

function show(language: string) {
  publish({ language, values: snapshot.values });
  void load(language);
}

/** The picker's choice: shown at once; remembered in this browser (or, on a kiosk, for this
 * kiosk session only) and, for a signed-in patient, on the server (PUT /api/account/language). */
export function setLanguage(name: string) {
  const language = languageName(name);
  if (kiosk) sessionStorage.setItem(KIOSK_KEY, language);
  else localStorage.setItem(STORAGE_KEY, language);
  show(language);
  if (rememberOnServer) void saveOnServer(language);
  else if (!kiosk) pickedSignedOut = true;
}

async function saveOnServer(language: string) {
  const body: LanguagePreference = { Language: language };
  await api.put<LanguagePreference>("/api/account/language", body, { report: false }).catch(() => {
    // The page is already in the language; the server keeps the previous one.
  });
}

/** Called by the session: a signed-in patient's choices go to their record. */
export function rememberForPatient(on: boolean) {
  rememberOnServer = on;
}

/** After a patient signs in: a language they picked on the sign-in page becomes their
 * preference; otherwise their remembered one (GET /api/account/language) replaces the browser's. */
export async function applyPatientLanguage(): Promise<void> {
  rememberOnServer = true;
  if (pickedSignedOut) {
    pickedSignedOut = false;
    return saveOnServer(snapshot.language);
  }
  try {
    const { Language } = await api.get<LanguagePreference>("/api/account/language", { report: false });
    const language = languageName(Language);
    localStorage.setItem(STORAGE_KEY, language);
    if (language !== snapshot.language) show(language);
  } catch {
    // Keep the language the sign-in page showed.
  }
}

/** A kiosk hands the tablet to the next patient: the last one's choice is forgotten and the
 * kiosk's pages start again in the browser's language. */
export function startKioskSession() {
  kiosk = true;
  sessionStorage.removeItem(KIOSK_KEY);
  show(browserLanguage());
}

/** The current language and `t(key)`: the text from LoadLabelValues (the server applies
 * wasm-core's labelTextIn: the clinic's text, else the shipped one, else English), and until those
 * arrive the shipped English (wasm-core/labels). `fallback` is for keys that are not shipped. */
export function useLabels() {
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => snapshot,
  );
  useEffect(() => {
    if (loadedFor !== current.language) void load(current.language);
  }, [current.language]);
  const t = (key: string, fallback?: string) => current.values[key] || english[key] || fallback || key;
  /** A message from a wasm-core rule or the API (English) in the current language: the label
   * whose shipped English it is (wasm-core labels::PATIENT_MESSAGES), or the label of the template
   * it was built from with its numbers and names put in (wasm-core message_templates: "Pin number
   * is wrong. You have 2 attempts left"), else the message as is. */
  const tMessage = (message: string) => {
    const constant = messageKeys().get(message);
    if (constant) return t(constant);
    const key = messageTemplateKey(message);
    return key ? messageText(message, t(key)) : message;
  };
  /** A date wasm-core formatted in one of the spec's formats, with its month and weekday names
   * (full and short) in the current language (the format itself stays the clinic's). On its own
   * (a cell, a heading) a date that starts with a name starts with a capital ("Miércoles, …");
   * `inSentence` keeps the labels' case for a date put into a sentence. */
  const tDate = (formatted: string, { inSentence = false }: { inSentence?: boolean } = {}) => {
    if (current.language === "english") return formatted;
    return localizeDateNames(formatted, Object.fromEntries(DATE_NAME_KEYS.map((key) => [key, t(key)])), inSentence);
  };
  return { language: current.language, t, tMessage, tDate };
}

/** The language picker of the sign-in pages, the patient pages and the kiosk: a labelled select
 * whose options name each language in itself (each with its own `lang`, so a screen reader
 * pronounces it right). */
export function LanguageSwitch({ className }: { className?: string }) {
  const { language, t } = useLabels();
  const id = useId();
  return (
    <div className={className ? `language-switch ${className}` : "language-switch"}>
      <label htmlFor={id}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
        </svg>
        <span>{t("Language_Picker")}</span>
      </label>
      <select id={id} value={language} onChange={(e) => setLanguage(e.target.value)}>
        {LANGUAGE_CHOICES.map((l) => (
          <option key={l.name} value={l.name} lang={l.tag}>
            {l.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A formatted date (wasm-core formatDate) with its month and weekday names in the current
 * language: for table cells and other places rendered outside a component's own hooks. */
export function DateText({ text }: { text: string }) {
  const { tDate } = useLabels();
  return <>{tDate(text)}</>;
}
