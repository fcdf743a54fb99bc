import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { HistoryPortal } from "../../lib/wasm";
import { fieldsOf } from "./field";
import { CONFLICT, FORM_INVALID, SAVED, SettingsForm } from "./settings-form";
import { fakeSettingsServer, renderSettingsPage, type FakeCall } from "./test-server";
import { useSettingsGroup } from "./use-settings-group";
import type { SettingsEnvelope } from "../../lib/wasm";

const Field = fieldsOf<HistoryPortal>();

const settings: HistoryPortal = {
  DefaultHistoryPortalSurvey: "S1",
  HrsAppointmentTimeType: "After",
  HrsAppointmentTimeValue: 24,
  HistoryPortalSurveyReminderStartTime: 8,
  HistoryPortalSurveyReminderEndTime: 18,
  HistoryPortalBusinessDays: [true, true, true, true, true, false, false],
  EnableSendingHistoryPortalNotifications: false,
  EnableHistoryPortalNotificationsByEmail: false,
  EnableHistoryPortalNotificationsBySms: false,
  HistoryPortalRemindXDaysBeforeAppt: "2, 1",
  HistoryPortalRemindUntilXHoursBeforeAppt: 12,
  EnableSendingIamHereNotifications: false,
  EnableIamHereNotificationsByEmail: false,
  EnableIamHereNotificationsBySms: false,
  HistoryPortalSendIAmHereXHoursBeforeAppointment: 2,
  HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment: 4,
  HistoryPortalMaxReadyForExamEmail: -1,
  IsDisabledIamHere: false,
  IsHideAppointmentTimeInHistoryPortal: false,
  HistoryPortalPatientNameColumnLastNameFirst: false,
  ClientBusinessPhone: "",
  EnableDemoMode: false,
};
const envelope: SettingsEnvelope<HistoryPortal> = { Name: "HistoryPortal", Version: 3, Settings: settings, StoredSecrets: [] };

function Page() {
  const group = useSettingsGroup<HistoryPortal>("HistoryPortal");
  return (
    <SettingsForm group={group} label="Test settings">
      <Field name="DefaultHistoryPortalSurvey" label="Default survey" />
      <Field name="HistoryPortalSurveyReminderEndTime" label="End hour" />
      <Field name="EnableSendingHistoryPortalNotifications" label="Send notifications" />
      <Field name="EnableHistoryPortalNotificationsByEmail" label="By email" />
      <Field name="ClientBusinessPhone" label="Business phone" />
    </SettingsForm>
  );
}

const form = () => screen.findByRole("form", { name: "Test settings" });
const puts = (calls: FakeCall[]) => calls.filter((c) => c.method === "PUT");

afterEach(() => vi.unstubAllGlobals());

describe("SettingsForm", () => {
  it("loads the group, picks each control from the value, and applies normalize as the user edits", async () => {
    fakeSettingsServer(envelope);
    renderSettingsPage(<Page />);
    const f = await form();
    expect(within(f).getByLabelText("Default survey")).toHaveValue("S1");
    expect(within(f).getByLabelText("End hour")).toHaveAttribute("type", "number");
    // Master on with no channel: the group's normalize turns email on at once.
    fireEvent.click(within(f).getByLabelText("Send notifications"));
    expect(within(f).getByLabelText("By email")).toBeChecked();
  });

  it("says 'Form is invalid' and shows wasm-core's message under the field; nothing is sent", async () => {
    const server = fakeSettingsServer(envelope);
    renderSettingsPage(<Page />);
    const f = await form();
    fireEvent.change(within(f).getByLabelText("End hour"), { target: { value: "25" } });
    fireEvent.click(within(f).getByRole("button", { name: "Save" }));
    expect(await screen.findByText(FORM_INVALID)).toBeInTheDocument();
    expect(within(f).getByText("Must be between 0 and 24")).toBeInTheDocument();
    expect(puts(server.calls)).toHaveLength(0);
  });

  it("saves the whole document with its Version, says so and reloads from the server", async () => {
    const server = fakeSettingsServer(envelope);
    renderSettingsPage(<Page />);
    const f = await form();
    fireEvent.change(within(f).getByLabelText("Default survey"), { target: { value: "S2" } });
    fireEvent.click(within(f).getByRole("button", { name: "Save" }));
    expect(await screen.findByText(SAVED)).toBeInTheDocument();
    const [put] = puts(server.calls);
    expect(put.path).toBe("/api/configurationForm/HistoryPortal");
    expect(put.body).toEqual({ Version: 3, Settings: { ...settings, DefaultHistoryPortalSurvey: "S2" } });
    await waitFor(() => expect(server.calls.filter((c) => c.method === "GET")).toHaveLength(2));
    // The next save carries the new version.
    fireEvent.click(within(f).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(puts(server.calls)).toHaveLength(2));
    expect((puts(server.calls)[1].body as { Version: number }).Version).toBe(4);
  });

  it("shows the field messages of a 400 under their fields", async () => {
    fakeSettingsServer(envelope, () => ({
      status: 400,
      body: { Title: "Validation", Message: "Form is invalid", ErrorId: "v1", Errors: { DefaultHistoryPortalSurvey: ["No survey with this SurveyId"], "": ["The survey list could not be read"] } },
    }));
    renderSettingsPage(<Page />);
    const f = await form();
    fireEvent.click(within(f).getByRole("button", { name: "Save" }));
    const message = await within(f).findByText("No survey with this SurveyId");
    expect(message).toBeInTheDocument();
    expect(within(f).getByLabelText("Default survey")).toHaveAttribute("aria-invalid", "true");
    // A message about the whole document shows above the fields.
    expect(within(f).getByRole("alert")).toHaveTextContent("The survey list could not be read");
    expect(screen.getAllByRole("alert").some((a) => a.textContent?.includes(FORM_INVALID))).toBe(true);
  });

  it("on 409 says someone else saved meanwhile, keeps the user's values until Reload, then shows the saved copy", async () => {
    const current: SettingsEnvelope<HistoryPortal> = { ...envelope, Version: 4, Settings: { ...settings, DefaultHistoryPortalSurvey: "Theirs" } };
    const server = fakeSettingsServer(envelope, () => {
      server.envelope = current;
      return { status: 409, body: { Title: "Conflict", Message: "Saved meanwhile", ErrorId: "c1", Current: current } };
    });
    renderSettingsPage(<Page />);
    const f = await form();
    fireEvent.change(within(f).getByLabelText("Default survey"), { target: { value: "Mine" } });
    fireEvent.click(within(f).getByRole("button", { name: "Save" }));
    expect(await within(f).findByText(CONFLICT)).toBeInTheDocument();
    expect(within(f).getByLabelText("Default survey")).toHaveValue("Mine");
    expect(within(f).getByRole("button", { name: "Save" })).toBeDisabled();
    fireEvent.click(within(f).getByRole("button", { name: "Reload" }));
    await waitFor(() => expect(within(f).getByLabelText("Default survey")).toHaveValue("Theirs"));
    expect(within(f).queryByText(CONFLICT)).toBeNull();
    expect(within(f).getByRole("button", { name: "Save" })).toBeEnabled();
  });

  it("asks before leaving with unsaved changes (in the app and on unload)", async () => {
    fakeSettingsServer(envelope);
    const router = renderSettingsPage(<Page />);
    const f = await form();
    const unload = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);

    fireEvent.change(within(f).getByLabelText("Default survey"), { target: { value: "Changed" } });
    await waitFor(() => {
      const event = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(event);
      expect(event.defaultPrevented).toBe(true);
    });
    fireEvent.click(screen.getByRole("link", { name: "Elsewhere" }));
    const dialog = await screen.findByRole("dialog", { name: "Unsaved changes" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Stay on this page" }));
    expect(router.state.location.pathname).toBe("/settings");
    expect(within(f).getByLabelText("Default survey")).toHaveValue("Changed");

    fireEvent.click(screen.getByRole("link", { name: "Elsewhere" }));
    fireEvent.click(within(await screen.findByRole("dialog", { name: "Unsaved changes" })).getByRole("button", { name: "Leave without saving" }));
    expect(await screen.findByRole("heading", { name: "Elsewhere page" })).toBeInTheDocument();
  });

  it("shows that a secret is stored and that leaving it empty keeps it", async () => {
    fakeSettingsServer({ ...envelope, StoredSecrets: ["ClientBusinessPhone"] });
    renderSettingsPage(<Page />);
    const f = await form();
    const secret = within(f).getByLabelText("Business phone");
    expect(secret).toHaveAttribute("type", "password");
    expect(secret).toHaveValue("");
    expect(secret).toHaveAccessibleDescription("A value is stored. Leave this empty to keep it.");
  });
});
