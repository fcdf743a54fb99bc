import type { RunnerThemes } from "../../../lib/wire";
import { surveyRequest } from "./http";

/** The survey themes as the survey screens draw them (spec 04 §2 "Survey themes"). */
export function loadRunnerThemes(): Promise<RunnerThemes> {
  return surveyRequest<RunnerThemes>("GET", "/api/surveyTheme/runnerThemes");
}
