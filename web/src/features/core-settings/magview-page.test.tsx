import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { fakeSettingsServer, renderSettingsPage } from "../../components/settings-form/test-server";
import { FORM_INVALID } from "../../components/settings-form";
import type { CoreMagview, SettingsEnvelope } from "../../lib/wasm";
import { MagViewPage } from "./magview-page";

const settings: CoreMagview = {
  MagViewMode: "MagViewDesktop",
  MagViewPath: "",
  DataConnectionType: "SQL",
  IsDMZMode: false,
  ProxyAppWebAddress: "",
  LuminaryOneUrl: "",
  MagViewSqlServerName: "db1",
  MagViewSqlDbName: "MagView",
  MagViewIntegratedSecurity: false,
  MagViewSqlUserName: "portal",
  MagViewSqlUserPwd: "",
  IsLinkedToRadView: false,
  RadViewPath: "",
  SchedulerApptType: "Screening",
};
// The password is stored on the server: an empty field keeps it, so it is not "missing".
const envelope: SettingsEnvelope<CoreMagview> = { Name: "CoreMagview", Version: 1, Settings: settings, StoredSecrets: ["MagViewSqlUserPwd"] };

afterEach(() => vi.unstubAllGlobals());

describe("Core Settings > MagView", () => {
  it("shows the fields of the mode and connection type (wasm-core), FoxPro forcing DMZ off", async () => {
    fakeSettingsServer(envelope);
    renderSettingsPage(<MagViewPage />);
    const f = await screen.findByRole("form", { name: "MagView" });
    expect(within(f).queryByLabelText("LuminaryOne URL")).toBeNull();
    expect(within(f).queryByLabelText("Proxy application web address")).toBeNull();
    fireEvent.click(within(f).getByLabelText("DMZ mode"));
    expect(within(f).getByLabelText("Proxy application web address")).toBeInTheDocument();
    fireEvent.change(within(f).getByLabelText("Data connection type"), { target: { value: "FOXPRO" } });
    expect(within(f).queryByRole("group", { name: "SQL Server" })).toBeNull();
    expect(within(f).queryByLabelText("DMZ mode")).toBeNull();
    fireEvent.change(within(f).getByLabelText("Data connection type"), { target: { value: "SQL" } });
    expect(within(f).getByLabelText("DMZ mode")).not.toBeChecked();
    fireEvent.change(within(f).getByLabelText("Mode"), { target: { value: "LuminaryOne" } });
    expect(within(f).getByLabelText("LuminaryOne URL")).toBeInTheDocument();
    expect(within(f).queryByLabelText("MagView Path")).toBeNull();
  });

  it("disables a test button while its field is empty", async () => {
    fakeSettingsServer(envelope);
    renderSettingsPage(<MagViewPage />);
    const f = await screen.findByRole("form", { name: "MagView" });
    expect(within(f).getByRole("button", { name: "Test Path" })).toBeDisabled();
    fireEvent.change(within(f).getByLabelText("MagView Path"), { target: { value: "/srv/magview" } });
    expect(within(f).getByRole("button", { name: "Test Path" })).toBeEnabled();
  });

  it("requires the path but not a stored password", async () => {
    const server = fakeSettingsServer(envelope);
    renderSettingsPage(<MagViewPage />);
    const f = await screen.findByRole("form", { name: "MagView" });
    fireEvent.click(within(f).getByRole("button", { name: "Save" }));
    expect(await screen.findByText(FORM_INVALID)).toBeInTheDocument();
    expect(within(f).getByText("MagView path is required")).toBeInTheDocument();
    expect(within(f).queryByText("SQL password is required")).toBeNull();
    expect(server.calls.filter((c) => c.method === "PUT")).toHaveLength(0);
  });
});
