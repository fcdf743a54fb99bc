// tMessage with the messages wasm-core builds with a number or a name (wasm-core
// message_templates): the page finds the template's Msg_ label, takes its text in the chosen
// language and puts the English message's values into it. The fake server answers
// LoadLabelValues with the shipped texts of the language (wasm-core/labels), as the API does
// when the clinic edited none.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLanguage, useLabels } from "./labels";

// vitest runs in web/ (jsdom gives import.meta.url no file path).
const LABELS = join(process.cwd(), "..", "wasm-core", "labels");
const CODES: Record<string, string> = { english: "en", spanish: "es", chinese: "zh", cambodian: "km", vietnamese: "vi", tagalog: "tl" };

function shipped(language: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(LABELS).filter((f) => f.endsWith(".json"))) {
    const labels = JSON.parse(readFileSync(join(LABELS, file), "utf8")) as Record<string, Record<string, string>>;
    for (const [key, label] of Object.entries(labels)) out[key] = label[CODES[language]!]!;
  }
  return out;
}

function serveShippedLabels() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const language = new URL(url, "http://portal.test").searchParams.get("language") ?? "english";
      return new Response(JSON.stringify(shipped(language)), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
}

function Messages({ messages }: { messages: string[] }) {
  const { tMessage, tDate } = useLabels();
  return (
    <ul>
      {messages.map((m) => (
        <li key={m}>{tDate(tMessage(m))}</li>
      ))}
    </ul>
  );
}

async function showIn(language: string, messages: string[]) {
  serveShippedLabels();
  render(<Messages messages={messages} />);
  await act(async () => setLanguage(language));
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("messages with a number or a name", () => {
  it("shows the kiosk's wrong-PIN message in Khmer with its number in digits", async () => {
    await showIn("cambodian", ["Pin number is wrong. You have 2 attempts left"]);
    expect(await screen.findByText("លេខ PIN មិនត្រឹមត្រូវទេ។ អ្នកនៅសល់ការព្យាយាម 2 ដងទៀត")).toBeInTheDocument();
  });

  it("puts a survey's name and a count into the Chinese texts, and keeps constant and unknown messages working", async () => {
    await showIn("chinese", ["Begin Knee Health", "You have 3 unread letters", "Begin Survey", "Please call 555-0100"]);
    expect(await screen.findByText("开始填写 Knee Health")).toBeInTheDocument();
    expect(screen.getByText("您有 3 封未读信件")).toBeInTheDocument();
    expect(screen.getByText("开始填写问卷")).toBeInTheDocument();
    expect(screen.getByText("Please call 555-0100")).toBeInTheDocument();
  });

  it("names the day and month of a letter's 'On {date}' stamp in the language", async () => {
    await showIn("chinese", ["On Friday, November 27, 2026"]);
    expect(await screen.findByText("于 星期五, 十一月 27, 2026")).toBeInTheDocument();
  });

  it("leaves a message whose number is a word in English", async () => {
    await showIn("vietnamese", ["Pin number is wrong. You have two attempts left", "Password must be at least 8 characters long"]);
    expect(await screen.findByText("Mật khẩu phải có ít nhất 8 ký tự")).toBeInTheDocument();
    expect(screen.getByText("Pin number is wrong. You have two attempts left")).toBeInTheDocument();
  });
});

function Dates({ dates }: { dates: { text: string; inSentence?: boolean }[] }) {
  const { tDate } = useLabels();
  return (
    <ul>
      {dates.map((d) => (
        <li key={`${d.text}${d.inSentence ? "-s" : ""}`}>{tDate(d.text, { inSentence: d.inSentence })}</li>
      ))}
    </ul>
  );
}

describe("dates and other number-bearing texts (issue 21)", () => {
  it("translates short names and starts a Spanish date shown on its own with a capital, not one inside a sentence", async () => {
    serveShippedLabels();
    render(
      <Dates
        dates={[{ text: "Wed, Mar 4, 2026" }, { text: "Wednesday, March 4, 2026" }, { text: "Thursday, March 5, 2026", inSentence: true }]}
      />,
    );
    await act(async () => setLanguage("spanish"));
    expect(await screen.findByText("Mié, mar 4, 2026")).toBeInTheDocument();
    expect(screen.getByText("Miércoles, marzo 4, 2026")).toBeInTheDocument();
    expect(screen.getByText("jueves, marzo 5, 2026")).toBeInTheDocument();
  });

  it("names Chinese short weekdays and months", async () => {
    serveShippedLabels();
    render(<Dates dates={[{ text: "Sun, Nov 22, 2026" }]} />);
    await act(async () => setLanguage("chinese"));
    expect(await screen.findByText("周日, 11月 22, 2026")).toBeInTheDocument();
  });

  it("shows the sign-in lockout with the minutes left in Spanish", async () => {
    await showIn("spanish", [
      "This account is locked after too many failed sign-in attempts. Try again in 12 minutes or ask the provider to reset the password.",
    ]);
    expect(
      await screen.findByText(
        "Esta cuenta está bloqueada por demasiados intentos fallidos de inicio de sesión. Inténtelo de nuevo en 12 minutos o pida al proveedor que restablezca la contraseña.",
      ),
    ).toBeInTheDocument();
  });
});
