import { beforeAll, describe, expect, it } from "vitest";
import { loadSettingsRules } from "../../lib/wasm-settings";
import { fieldMessages } from "../../lib/wasm";
import { EMPTY_MANAGER, setupErrors, type SetupValues } from "./setup-rules";

// A configuration validateSetup accepts (LuminaryOne, integrated security on the portal database).
const valid: SetupValues = {
  ClientName: "Clinic",
  // spec 03 §5: CorePortal requires it, and the wizard writes CorePortal.
  PublicWebAddress: "http://127.0.0.1:8080/",
  MagViewMode: "LuminaryOne",
  LuminaryOneUrl: "http://127.0.0.1:9/",
  DataConnectionType: "SQL",
  PortalSqlServerName: "127.0.0.1:5432",
  PortalSqlDbName: "postgres",
  PortalIntegratedSecurity: true,
  NOTIFICATION_Port: 25,
  NOTIFICATION_Timeout: 30,
  EMAIL_SERVICE_Port: 25,
  EMAIL_SERVICE_Timeout: 30,
  EmailServiceMaxRecordsCountToProcess: 100,
  FirstManager: EMPTY_MANAGER,
};

describe("the setup wizard's rules", () => {
  beforeAll(async () => {
    await loadSettingsRules();
  });

  it("accepts a complete configuration", () => {
    expect(setupErrors(valid, null)).toEqual({});
  });

  it("checks the number fields as their settings groups do, under the wizard's names", () => {
    const errors = setupErrors({ ...valid, NOTIFICATION_Port: 70000, EMAIL_SERVICE_Timeout: Number.NaN, EmailServiceMaxRecordsCountToProcess: 2.5 }, null);
    expect(fieldMessages(errors, "NOTIFICATION_Port")).toEqual(["Must be at most 65535"]);
    expect(fieldMessages(errors, "EMAIL_SERVICE_Timeout")).toEqual(["Enter a number"]);
    expect(fieldMessages(errors, "EmailServiceMaxRecordsCountToProcess").length).toBeGreaterThan(0);
  });

  it("has the spec's messages of validateSetup and, while it is asked for, the first account's", () => {
    const errors = setupErrors({ ...valid, ClientName: " ", SERVICE_ACCOUNT_PASSWORD: "a", SERVICE_ACCOUNT_PASSWORD_Confirm: "b" }, { rules: null });
    expect(fieldMessages(errors, "ClientName")).toEqual(["Client Name field is required"]);
    expect(fieldMessages(errors, "SERVICE_ACCOUNT_PASSWORD_Confirm")).toEqual(["Passwords are not matching"]);
    expect(fieldMessages(errors, "FirstManager.Username").length).toBeGreaterThan(0);
    expect(fieldMessages(setupErrors(valid, null), "FirstManager.Username")).toEqual([]);
  });

  it("asks for the Public Web Address, which CorePortal requires (spec 03 §5)", () => {
    const errors = setupErrors({ ...valid, PublicWebAddress: "" }, null);
    expect(fieldMessages(errors, "PublicWebAddress")).toEqual(["Public Web Address is required"]);
  });
});
