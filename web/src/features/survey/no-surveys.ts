export const NO_SURVEYS = "No surveys available. Please contact administrator.";

/** Tells an embedding page that there is nothing to start (spec 01 §8): the kiosk's PIN screen
 * and the staff start post it when no survey can be started. */
export function postNoSurveys() {
  if (window.parent !== window) window.parent.postMessage({ type: "no-survey-available", message: NO_SURVEYS }, "*");
}
