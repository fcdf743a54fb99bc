import { ApiFailure } from "../../lib/api-client";

export const NO_INTERNET = "No internet connnection. Please try again later"; // spelling as in spec 01 §8

/** A call that never reached the server. */
export function isOffline(err: unknown): boolean {
  return err instanceof ApiFailure && err.status === 0;
}

/** What the survey screens say about a failed call: the spec's 'No internet' text when offline,
 * else the server's message. */
export function failureText(err: unknown): string {
  if (isOffline(err)) return NO_INTERNET;
  return err instanceof ApiFailure ? err.dialog?.Message || err.message : (err as Error).message;
}

/** The title over that text: the server's, or 'Error' offline and for anything else. */
export function failureTitle(err: unknown): string {
  return err instanceof ApiFailure && !isOffline(err) ? (err.dialog?.Title ?? "Error") : "Error";
}
