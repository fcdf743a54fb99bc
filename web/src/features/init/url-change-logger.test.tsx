import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { URL_LOG_DELAY_MS, UrlChangeLogger } from "./url-change-logger";

describe("UrlChangeLogger (spec 02 §7.5)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("posts each page change once, 500 ms after it; a quicker change replaces the pending one", async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push({ url: String(input), body: JSON.parse(String(init?.body ?? "null")) });
        return new Response('{"Logged":true}', { status: 200 });
      }),
    );
    const router = createMemoryRouter([{ path: "*", element: <UrlChangeLogger /> }], { initialEntries: ["/home"] });
    render(<RouterProvider router={router} />);
    expect(URL_LOG_DELAY_MS).toBe(500);
    await act(async () => vi.advanceTimersByTime(499));
    expect(calls).toEqual([]);
    await act(async () => vi.advanceTimersByTime(1));
    expect(calls).toEqual([{ url: "/api/Event/LogUrlChange", body: { Url: "/home" } }]);

    await act(async () => router.navigate("/documents/unread"));
    await act(async () => vi.advanceTimersByTime(200));
    await act(async () => router.navigate("/documents/all?x=1"));
    await act(async () => vi.advanceTimersByTime(500));
    expect(calls.map((c) => c.body)).toEqual([{ Url: "/home" }, { Url: "/documents/all?x=1" }]);
  });
});
