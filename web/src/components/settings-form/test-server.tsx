// Test helpers for settings pages: a fake configurationForm API and the providers a page needs.
import { vi } from "vitest";
import { render } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, Link, RouterProvider } from "react-router";
import type { ReactNode } from "react";
import { createQueryClient } from "../../app/query-client";
import { ToastProvider } from "../toast/toast";
import type { SettingsEnvelope } from "../../lib/wasm";

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
}

/** Answers GET with `envelope` (as it is at that moment) and PUT with what `onPut` returns. */
export function fakeSettingsServer<T>(start: SettingsEnvelope<T>, onPut?: (body: { Version: number; Settings: T }) => { status: number; body: unknown }) {
  const state = { envelope: start, calls: [] as FakeCall[] };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const path = String(input);
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      state.calls.push({ method, path, body });
      if (method === "GET") return new Response(JSON.stringify(state.envelope), { status: 200, headers: { ETag: `"${state.envelope.Version}"` } });
      const answer = onPut?.(body) ?? { status: 200, body: (state.envelope = { ...state.envelope, Version: state.envelope.Version + 1, Settings: body.Settings }) };
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return state;
}

/** `page` at /settings inside the app's providers, with a link to another page. */
export function renderSettingsPage(page: ReactNode) {
  const router = createMemoryRouter(
    [
      {
        path: "/settings",
        element: (
          <>
            <Link to="/elsewhere">Elsewhere</Link>
            {page}
          </>
        ),
      },
      { path: "/elsewhere", element: <h1>Elsewhere page</h1> },
    ],
    { initialEntries: ["/settings"] },
  );
  const queryClient = createQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return router;
}
