import { afterEach, describe, expect, it, vi } from "vitest";
import { api, ApiFailure, onApiFailure, request } from "./api-client";

function respond(status: number, body: string) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(body, { status }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = "portal_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/";
});

describe("api client", () => {
  it("repeats the CSRF cookie in X-CSRF-Token on unsafe methods only, with same-origin cookies", async () => {
    document.cookie = "portal_csrf=abc%2F123; path=/";
    const fetchMock = respond(200, '{"IsValid":true}');
    await expect(api.post("/api/patientUser/login", { usernameOrEmail: "a" })).resolves.toEqual({ IsValid: true });
    const [, init] = fetchMock.mock.calls[0];
    expect(init?.credentials).toBe("same-origin");
    expect((init?.headers as Record<string, string>)["X-CSRF-Token"]).toBe("abc/123");
    expect((init?.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
    expect(init?.body).toBe('{"usernameOrEmail":"a"}');

    await api.get("/api/accountApi/permissionsJson");
    expect((fetchMock.mock.calls[1][1]?.headers as Record<string, string>)["X-CSRF-Token"]).toBeUndefined();
  });

  it("sends a file (Blob) as the raw body with its own content type and the CSRF header", async () => {
    document.cookie = "portal_csrf=t1; path=/";
    const fetchMock = respond(200, '{"Files":[]}');
    const file = new File(["<survey/>"], "s.xml", { type: "text/xml" });
    await expect(api.post("/api/admin/UploadSurveyXml?fileName=s.xml", file)).resolves.toEqual({ Files: [] });
    const [, init] = fetchMock.mock.calls[0];
    expect(init?.body).toBe(file);
    expect((init?.headers as Record<string, string>)["Content-Type"]).toBe("text/xml");
    expect((init?.headers as Record<string, string>)["X-CSRF-Token"]).toBe("t1");
  });

  it("reports a 401 as wasm-core's redirect to the patient login", async () => {
    respond(401, '{"Title":"Unauthorized","Message":"Sign in","ErrorId":"x"}');
    const seen = vi.fn();
    const stop = onApiFailure(seen);
    try {
      await expect(api.get("/api/accountApi/getCurrentUserName")).rejects.toBeInstanceOf(ApiFailure);
      expect(seen).toHaveBeenCalledTimes(1);
      expect(seen.mock.calls[0][0].dialog).toMatchObject({ Kind: "Redirect", RedirectTo: "/patient/login" });
    } finally {
      stop();
    }
  });

  it("reports a 500 as a dialog, unless the caller shows failures itself", async () => {
    respond(500, '{"Title":"Server Error","Message":"Something went wrong.","ErrorId":"e-1"}');
    const seen = vi.fn();
    const stop = onApiFailure(seen);
    try {
      await expect(api.post("/api/surveyQueue/datatable", {})).rejects.toMatchObject({
        status: 500,
        dialog: { Kind: "Dialog", Title: "Server Error", ErrorId: "e-1" },
      });
      expect(seen).toHaveBeenCalledTimes(1);
      await expect(api.post("/api/staffUser/login", {}, { report: false })).rejects.toBeInstanceOf(ApiFailure);
      expect(seen).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it("treats a call that never got an answer as a failure with a dialog", async () => {
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    await expect(api.get("/api/health", { report: false })).rejects.toMatchObject({ status: 0, dialog: { Kind: "Dialog" } });
  });

  it("lets a caller show the statuses it handles (409 with the current copy) and still reports the rest", async () => {
    const seen = vi.fn();
    const stop = onApiFailure(seen);
    try {
      respond(409, '{"Title":"Conflict","Message":"Saved meanwhile","ErrorId":"c","Current":{"Version":4}}');
      await expect(api.put("/api/configurationForm/HistoryPortal", {}, { handles: [400, 409] })).rejects.toMatchObject({
        status: 409,
        body: { Current: { Version: 4 } },
      });
      expect(seen).not.toHaveBeenCalled();
      respond(401, '{"Title":"Unauthorized","Message":"Sign in","ErrorId":"x"}');
      await expect(api.put("/api/configurationForm/HistoryPortal", {}, { handles: [400, 409] })).rejects.toMatchObject({ status: 401 });
      expect(seen).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it("sends extra headers (the survey kiosk's token) beside its own", async () => {
    document.cookie = "portal_csrf=t2; path=/";
    const fetchMock = respond(200, "");
    await expect(request("PUT", "/api/survey/answers", { a: 1 }, { headers: { "X-Survey-Token": "tok" } })).resolves.toBeUndefined();
    const headers = fetchMock.mock.calls[0][1]?.headers as Record<string, string>;
    expect(headers["X-Survey-Token"]).toBe("tok");
    expect(headers["X-CSRF-Token"]).toBe("t2");
  });
});
