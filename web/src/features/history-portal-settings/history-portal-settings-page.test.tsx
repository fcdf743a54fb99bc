import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { fakeSettingsServer, renderSettingsPage } from "../../components/settings-form/test-server";
import type { HistoryPortal } from "../../lib/wasm";
import { HistoryPortalSettingsPage } from "./history-portal-settings-page";

const settings: HistoryPortal = {
  HrsAppointmentTimeType: "After",
  HrsAppointmentTimeValue: 24,
  HistoryPortalSurveyReminderStartTime: 8,
  HistoryPortalSurveyReminderEndTime: 18,
  HistoryPortalBusinessDays: [true, true, true, true, true, false, false],
  EnableSendingHistoryPortalNotifications: true,
  EnableHistoryPortalNotificationsByEmail: false,
  EnableHistoryPortalNotificationsBySms: true,
  EnableSendingIamHereNotifications: false,
  EnableIamHereNotificationsByEmail: false,
  EnableIamHereNotificationsBySms: false,
  HistoryPortalMaxReadyForExamEmail: -1,
};

afterEach(() => vi.unstubAllGlobals());

describe("History Portal settings", () => {
  it("follows the toggle rules of spec 03 §4 as the user clicks", async () => {
    fakeSettingsServer({ Name: "HistoryPortal", Version: 1, Settings: settings, StoredSecrets: [] });
    renderSettingsPage(<HistoryPortalSettingsPage />);
    const form = await screen.findByRole("form", { name: "History Portal Settings" });
    const hp = within(form).getByRole("group", { name: "History portal notifications" });
    const master = within(form).getByLabelText("Send history portal notifications");
    const email = within(hp).getByLabelText("By email");
    const sms = within(hp).getByLabelText("By SMS");
    // Master off clears both channels; master on with none: email on, SMS off.
    fireEvent.click(master);
    expect(email).not.toBeChecked();
    expect(sms).not.toBeChecked();
    fireEvent.click(master);
    expect(email).toBeChecked();
    expect(sms).not.toBeChecked();
    // Both channels off turns the master off.
    fireEvent.click(email);
    expect(master).not.toBeChecked();
    // 'I am Here': master on with none turns both on.
    const iam = within(form).getByRole("group", { name: "'I am Here' notifications" });
    fireEvent.click(within(form).getByLabelText("Send 'I am Here' notifications"));
    expect(within(iam).getByLabelText("By email")).toBeChecked();
    expect(within(iam).getByLabelText("By SMS")).toBeChecked();
  });

  it("shows the ranges of spec 03 §5 under their fields", async () => {
    fakeSettingsServer({ Name: "HistoryPortal", Version: 1, Settings: settings, StoredSecrets: [] });
    renderSettingsPage(<HistoryPortalSettingsPage />);
    const form = await screen.findByRole("form", { name: "History Portal Settings" });
    fireEvent.change(within(form).getByLabelText("Reminder end time (hour)"), { target: { value: "25" } });
    fireEvent.change(within(form).getByLabelText("Maximum ready-for-exam tries (-1 unlimited)"), { target: { value: "-2" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Form is invalid")).toBeInTheDocument();
    expect(within(form).getByText("Must be between 0 and 24")).toBeInTheDocument();
    expect(within(form).getByText("Must be between -1 and 99")).toBeInTheDocument();
    expect(within(form).getByRole("group", { name: "Business days" })).toBeInTheDocument();
  });
});
