// Reading the mail the demo portal really delivered: run-local.sh (and scripts/test.sh) start
// sinks.py, an SMTP server on loopback that writes each message into the Maildir at MAIL_DIR.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";

const MAIL_DIR = process.env.MAIL_DIR ?? "";

/** The decoded body of a raw email (quoted-printable undone). */
export function mailText(raw: string): string {
  const body = raw.replace(/\r\n/g, "\n").split("\n\n").slice(1).join("\n\n");
  if (!/quoted-printable/i.test(raw)) return body;
  return body.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The decoded bodies of every email delivered to `to` so far. */
export function mails(to: string): string[] {
  const dir = join(MAIL_DIR, "new");
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.map((n) => readFileSync(join(dir, n), "utf8")).filter((m) => m.includes(`To: ${to}`)).map(mailText);
}

/** Waits for a new email to `to` (one not in `seen`) containing `marker`, and returns its text.
 * The marker keeps specs that run in parallel from taking each other's mail. */
export async function nextMail(to: string, seen: string[], marker: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => (found = mails(to).find((m) => !seen.includes(m) && m.includes(marker))) !== undefined, {
      timeout: 15_000,
      message: `an email to ${to} with ${marker}`,
    })
    .toBe(true);
  return found!;
}
