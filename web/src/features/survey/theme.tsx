import { useEffect, useId, useState, type CSSProperties } from "react";
import type { RunnerThemes } from "../../lib/wire";
import { loadRunnerThemes } from "./api/runner-themes";
import { useLabels } from "../../i18n/labels";

// The clinic's survey theme on the survey screens (runner, PIN and staff start), and the
// patient's own choice on this device unless HideSurveyThemeSettingsButton. The variables are
// wasm-core's (survey::theme); the last answer is kept so a reload without network looks the same.
const CACHE_KEY = "portal.surveyThemes";
const CHOICE_KEY = "portal.surveyThemeChoice";

function cached(): RunnerThemes | null {
  try {
    return JSON.parse(localStorage.getItem(CACHE_KEY) ?? "null") as RunnerThemes | null;
  } catch {
    return null;
  }
}

export interface SurveyTheme {
  style: CSSProperties;
  /** The theme shown (the patient's choice, else the clinic's). */
  name: string;
  /** The themes a patient may pick from; empty when the switch is hidden. */
  choices: { name: string; label: string }[];
  choose: (name: string) => void;
}

export function useSurveyTheme(): SurveyTheme {
  const [themes, setThemes] = useState<RunnerThemes | null>(cached);
  const [choice, setChoice] = useState<string | null>(() => localStorage.getItem(CHOICE_KEY));
  useEffect(() => {
    let live = true;
    loadRunnerThemes()
      .then((t) => {
        if (!live) return;
        setThemes(t);
        localStorage.setItem(CACHE_KEY, JSON.stringify(t));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  const hidden = themes?.HideSurveyThemeSettingsButton ?? true;
  const pick = !hidden && choice && themes?.Themes.some((t) => t.Name === choice) ? choice : themes?.Selected;
  const theme = themes?.Themes.find((t) => t.Name === pick);
  const style = Object.fromEntries((theme?.Variables ?? []).map((v) => [v.Name, v.Value])) as CSSProperties;
  const fontSize = theme?.Variables.find((v) => v.Name === "--survey-font-size")?.Value;
  // The survey's sizes are in rem: the theme's text size is the root's while the survey shows.
  useEffect(() => {
    if (!fontSize) return;
    const root = document.documentElement;
    const before = root.style.fontSize;
    root.style.fontSize = fontSize;
    return () => {
      root.style.fontSize = before;
    };
  }, [fontSize]);
  return {
    style,
    name: theme?.Name ?? "",
    choices: hidden ? [] : (themes?.Themes ?? []).map((t) => ({ name: t.Name, label: t.FriendlyName })),
    choose: (name) => {
      localStorage.setItem(CHOICE_KEY, name);
      setChoice(name);
    },
  };
}

/** The patient's theme switch (a labelled select; large targets like the language one). */
export function ThemeSwitch({ theme }: { theme: SurveyTheme }) {
  const id = useId();
  const { t } = useLabels();
  if (theme.choices.length < 2) return null;
  return (
    <div className="survey-lang">
      <label htmlFor={id}>{t("SurveyRunner_Theme")}</label>
      <select id={id} value={theme.name} onChange={(e) => theme.choose(e.target.value)}>
        {theme.choices.map((c) => (
          <option key={c.name} value={c.name}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
