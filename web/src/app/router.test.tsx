import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import type { ModulePermissions, Permissions } from "../lib/wasm";

// The route tree against a fake server: every answer is what the contract says the API sends.
type Answers = Record<string, () => Response>;
const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status });

const anonymous: Permissions = {
  IsProgramManager: false,
  IsClientAdmin: false,
  IsPatient: false,
  IsFrontDesk: false,
  IsImpersonated: false,
  IsSsoMode: false,
  IsUserLoggedIn: false,
};
const modules: ModulePermissions = { Module_Documents: true, Module_Appointments: true, Module_MedicalHistory: true };

function server(configured: boolean | "broken", permissions: Permissions, extra: Answers = {}): Answers {
  return {
    "/api/TestInit/isPortalConfigured":
      configured === "broken" ? json({ Title: "Server Error", Message: "down", ErrorId: "e" }, 500) : json({ IsPortalConfigured: configured }),
    "/api/accountApi/permissionsJson": json(permissions),
    "/api/accountApi/apppermissionsJson": json(modules),
    "/api/accountApi/mainMenuSettings": json({ IsCernerOAuthEnabled: false, IsSsoMode: false, DisableSecondaryRecoveryOptions: false }),
    "/api/accountApi/getCurrentUserName": json({ UserName: "Jane Doe" }),
    "/api/surveyApi/GetNextAppointmentsForUser": json({ nextAppointments: [], isHideAppointmentTimeInHistoryPortal: false }),
    "/api/accountApi/sessionSettings": json({ SessionTimeoutMinutes: 20, WarnBeforeSessionTimeoutMinutes: 2, SessionTimeoutRedirectLink: "" }),
    "/api/auth/getSessionTimeoutSeconds": json({ SessionTimeoutSeconds: 1200 }),
    ...extra,
  };
}

async function renderAt(path: string, answers: Answers) {
  const routes = await freshRoutes();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const answer = answers[String(input)];
      return answer ? answer() : new Response('{"Title":"Server Error","Message":"404 Not Found","ErrorId":"n"}', { status: 404 });
    }),
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => vi.resetModules());
// A lazy route's first load (its module and the wasm) can take seconds on a busy machine.
const LAZY_MS = 8000;
afterEach(() => vi.unstubAllGlobals());

// The configured check is made once per page load; each test loads a fresh copy of the app.
async function freshRoutes() {
  const mod = await import("./router");
  return mod.routes;
}

describe("route tree", { timeout: 30_000 }, () => {
  it("sends every route to /init while the portal is not configured", async () => {
    const router = await renderAt("/home", server(false, anonymous));
    expect(await screen.findByRole("heading", { name: "Installation complete" }, { timeout: LAZY_MS })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/init");
    expect(screen.getByRole("link", { name: "Go to configuration" })).toHaveAttribute("href", "/init/configuration");
  });

  it("sends a signed-out visitor on a shell route to the patient login", async () => {
    const router = await renderAt("/admin/history-portal/all", server(true, anonymous));
    expect(await screen.findByRole("heading", { name: "Patient Login" }, { timeout: LAZY_MS })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/patient/login");
  });

  it("only logs a failed configured check, and carries on", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await renderAt("/staff/login", server("broken", anonymous));
    expect(await screen.findByRole("heading", { name: "Staff Login" }, { timeout: LAZY_MS })).toBeInTheDocument();
    expect(log).toHaveBeenCalled();
    expect(screen.queryByRole("dialog")).toBeNull();
    log.mockRestore();
  });

  it("opens home in the shell for a signed-in patient, with wasm-core's menu, and sends unknown paths to the root", async () => {
    const router = await renderAt("/somewhere/else", server(true, { ...anonymous, IsPatient: true, IsUserLoggedIn: true }));
    expect(await screen.findByRole("heading", { name: "Welcome, Jane Doe" }, { timeout: LAZY_MS })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/home");
    expect(screen.getByRole("heading", { level: 1, name: "Home" })).toBeInTheDocument();
    const menu = within(screen.getByRole("navigation", { name: "Main menu" }));
    expect(menu.getAllByRole("link").map((a) => a.textContent)).toEqual(["Home", "Documents", "Appointments", "Medical History"]);
  });

  it("gives lazy routes a fallback while their module loads (no 'No HydrateFallback element' warning)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await renderAt("/register?locNum=", server(true, anonymous, { "/api/userRegistrationApi/checkLocation?locNum=": json({ IsValid: false }) }));
    expect(await screen.findByRole("heading", { name: "This link is not valid" }, { timeout: LAZY_MS })).toBeInTheDocument();
    expect(warn.mock.calls.flat().join(" ")).not.toContain("HydrateFallback");
    warn.mockRestore();
  });

  it("says a configured portal is configured on /init (issue 20)", async () => {
    await renderAt("/init", server(true, anonymous));
    expect(await screen.findByRole("heading", { name: "The portal is configured" }, { timeout: LAZY_MS })).toBeInTheDocument();
    expect(screen.queryByText(/not configured yet/)).toBeNull();
    expect(screen.getByRole("link", { name: "Staff login" })).toHaveAttribute("href", "/staff/login");
  });
});
