import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { SessionTimer, type SessionTimerServer } from "./session-timer";

const SETTINGS = { SessionTimeoutMinutes: 20, WarnBeforeSessionTimeoutMinutes: 2, SessionTimeoutRedirectLink: "https://example.org/bye" };

/** A stand-in server with its own clock (the fake one): time left shrinks as time passes. */
function server(secondsLeft: number): SessionTimerServer & { continueSession: ReturnType<typeof vi.fn> } {
  let deadline = Date.now() + secondsLeft * 1000;
  return {
    getSessionSettings: () => Promise.resolve(SETTINGS),
    getSessionTimeoutSeconds: () => Promise.resolve({ SessionTimeoutSeconds: Math.max(0, Math.floor((deadline - Date.now()) / 1000)) }),
    continueSession: vi.fn(() => {
      deadline = Date.now() + 1_200_000;
      return Promise.resolve({ SessionTimeoutSeconds: 1200 });
    }),
  };
}

async function flush() {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

describe("SessionTimer", () => {
  it("warns before expiry, expires, and Continue extends the session", async () => {
    vi.useFakeTimers();
    try {
      const api = server(125);
      render(<SessionTimer api={api} />);
      await flush();
      expect(screen.queryByRole("dialog")).toBeNull();
      act(() => vi.advanceTimersByTime(5_000));
      expect(screen.getByRole("dialog", { name: "Session about to expire" })).toHaveTextContent("2:00");
      act(() => vi.advanceTimersByTime(60_000));
      await flush();
      act(() => vi.advanceTimersByTime(60_000));
      await flush();
      // The last check answered after the clock moved on; a few more seconds run out the time.
      act(() => vi.advanceTimersByTime(10_000));
      expect(screen.getByRole("dialog", { name: "Session expired" })).toBeInTheDocument();
      fireEvent.click(screen.getByRole("button", { name: "Continue" }));
      await flush();
      expect(api.continueSession).toHaveBeenCalledTimes(1);
      expect(screen.queryByRole("dialog")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("Exit goes to the configured link", async () => {
    vi.useFakeTimers();
    try {
      const onExit = vi.fn();
      render(<SessionTimer api={server(0)} onExit={onExit} />);
      await flush();
      act(() => vi.advanceTimersByTime(1_000));
      fireEvent.click(screen.getByRole("button", { name: "Exit" }));
      expect(onExit).toHaveBeenCalledWith("https://example.org/bye");
    } finally {
      vi.useRealTimers();
    }
  });
});
