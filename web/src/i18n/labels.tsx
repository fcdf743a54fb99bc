import { useEffect, useSyncExternalStore } from "react";
import { api } from "../lib/api-client";
import english from "virtual:label-english";
import { languageName } from "../lib/wasm";

/** The six languages of spec 03 §9 (name as the API takes it, name shown in the switch). */
export const LANGUAGE_CHOICES: { name: string; label: string }[] = [
  { name: "english", label: "English" },
  { name: "spanish", label: "Español" },
  { name: "chinese", label: "中文" },
  { name: "cambodian", label: "ភាសាខ្មែរ" },
  { name: "vietnamese", label: "Tiếng Việt" },
  { name: "tagalog", label: "Tagalog" },
];

const STORAGE_KEY = "portal.language";

let byEnglish: Map<string, string> | null = null;
/** English text -> key of the shipped `Msg_` labels (the wasm-core messages). */
function messageKeys(): Map<string, string> {
  if (!byEnglish) {
    byEnglish = new Map(Object.entries(english).filter(([key]) => key.startsWith("Msg_")).map(([key, text]) => [text, key]));
  }
  return byEnglish;
}
type Snapshot = { language: string; values: Record<string, string> };
let snapshot: Snapshot = { language: languageName(localStorage.getItem(STORAGE_KEY) ?? "english"), values: {} };
let loadedFor: string | null = null;
const listeners = new Set<() => void>();

function publish(next: Snapshot) {
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

/** Switches the patient screens' language; remembered in this browser. */
export function setLanguage(name: string) {
  const language = languageName(name);
  localStorage.setItem(STORAGE_KEY, language);
  publish({ language, values: snapshot.values });
  void load(language);
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
   * whose shipped English it is (wasm-core labels::PATIENT_MESSAGES), else the message as is. */
  const tMessage = (message: string) => {
    const key = messageKeys().get(message);
    return key ? t(key) : message;
  };
  return { language: current.language, t, tMessage };
}

export function LanguageSwitch() {
  const { language } = useLabels();
  return (
    <label className="language-switch">
      <span>Language</span>
      <select value={language} onChange={(e) => setLanguage(e.target.value)}>
        {LANGUAGE_CHOICES.map((l) => (
          <option key={l.name} value={l.name}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}
