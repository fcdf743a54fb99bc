import { beforeAll, describe, expect, it } from "vitest";
import { loadSettingsRules } from "../../lib/wasm-settings";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { FormProvider, useForm } from "react-hook-form";
import { CheckboxField, CheckboxListField, ChoiceListField, NumberField, PasswordField, SelectField, TextField } from "./fields";
import { setServerErrors, settingsResolver } from "./resolver";
import type { HistoryPortal } from "../../lib/wasm";

let submitted: HistoryPortal | null = null;

function Form({ values }: { values: HistoryPortal }) {
  const form = useForm<HistoryPortal>({ defaultValues: values, resolver: settingsResolver("HistoryPortal"), criteriaMode: "all" });
  return (
    <FormProvider {...form}>
      <form onSubmit={form.handleSubmit((v) => (submitted = v))} aria-label="Test" noValidate>
        <TextField name="DefaultHistoryPortalSurvey" label="Default survey" description="A SurveyId" />
        <NumberField name="HistoryPortalSurveyReminderEndTime" label="End hour" min={0} max={24} />
        <CheckboxField name="IsDisabledIamHere" label="Disable 'I am Here'" />
        <SelectField name="HrsAppointmentTimeType" label="Survey expires" options={[{ value: "Before", label: "Before" }, { value: "After", label: "After" }]} />
        <CheckboxListField name="HistoryPortalBusinessDays" label="Business days" items={["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]} />
        <PasswordField name="ClientBusinessPhone" label="Secret" stored />
        <button type="submit">Save</button>
      </form>
    </FormProvider>
  );
}

const base: HistoryPortal = {
  DefaultHistoryPortalSurvey: "S1",
  HistoryPortalSurveyReminderStartTime: 8,
  HistoryPortalSurveyReminderEndTime: 18,
  IsDisabledIamHere: false,
  HrsAppointmentTimeType: "After",
  HistoryPortalBusinessDays: [true, true, true, true, true, false, false],
  ClientBusinessPhone: "",
};

describe("form fields", () => {
  // The settings rules are their own wasm package, loaded on first use (lib/wasm-settings.ts).
  beforeAll(async () => {
    await loadSettingsRules();
  });

  it("label their controls and describe them", () => {
    render(<Form values={base} />);
    expect(screen.getByLabelText("Default survey")).toHaveValue("S1");
    expect(screen.getByLabelText("Default survey")).toHaveAccessibleDescription("A SurveyId");
    expect(screen.getByLabelText("End hour")).toHaveValue(18);
    expect(screen.getByLabelText("Disable 'I am Here'")).not.toBeChecked();
    expect(screen.getByLabelText("Survey expires")).toHaveValue("After");
    expect(screen.getByRole("group", { name: "Business days" })).toBeInTheDocument();
    expect(screen.getByLabelText("Mon")).toBeChecked();
    expect(screen.getByLabelText("Sun")).not.toBeChecked();
    expect(screen.getByLabelText("Secret")).toHaveAttribute("type", "password");
    expect(screen.getByLabelText("Secret")).toHaveAccessibleDescription("A value is stored. Leave this empty to keep it.");
  });

  it("show wasm-core's messages under the field, marked invalid and described by them", async () => {
    render(<Form values={base} />);
    const end = screen.getByLabelText("End hour");
    fireEvent.change(end, { target: { value: "25" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Must be between 0 and 24")).toBeInTheDocument();
    expect(end).toHaveAttribute("aria-invalid", "true");
    expect(end).toHaveAccessibleDescription("Must be between 0 and 24");
    // Clearing the box gives NaN: the field's own message, not a crash.
    fireEvent.change(end, { target: { value: "" } });
    expect(await screen.findByText("Required")).toBeInTheDocument();
  });

  it("gives a list's message under its group and submits numbers as numbers", async () => {
    render(<Form values={{ ...base, HistoryPortalBusinessDays: [true, false, false, false, false, false, false] }} />);
    fireEvent.click(screen.getByLabelText("Mon"));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Choose at least one business day")).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText("Tue"));
    fireEvent.change(screen.getByLabelText("End hour"), { target: { value: "17" } });
    submitted = null;
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(submitted).not.toBeNull());
    expect(submitted!.HistoryPortalSurveyReminderEndTime).toBe(17);
    expect(submitted!.HistoryPortalBusinessDays).toEqual([false, true, false, false, false, false, false]);
    expect(screen.queryByText("Choose at least one business day")).toBeNull();
  });
});

describe("ChoiceListField and server messages", () => {
  let chosen: { Locs: string[]; Name: string } | null = null;
  function Choices() {
    const form = useForm({ defaultValues: { Locs: ["B"], Name: "x" } });
    return (
      <FormProvider {...form}>
        <form onSubmit={form.handleSubmit((v) => (chosen = v))} aria-label="Choices" noValidate>
          <ChoiceListField name="Locs" label="Locations" options={["A", "B", "C"].map((v) => ({ value: v, label: `Location ${v}` }))} />
          <TextField name="Name" label="Name" />
          <button type="button" onClick={() => setServerErrors(form.setError, { Locs: ["Unknown location"], Name: ["Name is taken"], "": ["Try later"] })}>Server</button>
          <button type="submit">Save</button>
        </form>
      </FormProvider>
    );
  }

  it("holds the checked values as a list and shows the server's messages under their fields", async () => {
    render(<Choices />);
    expect(screen.getByRole("group", { name: "Locations" })).toBeInTheDocument();
    expect(screen.getByLabelText("Location B")).toBeChecked();
    fireEvent.click(screen.getByLabelText("Location C"));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(chosen).not.toBeNull());
    expect(chosen!.Locs).toEqual(["B", "C"]);
    fireEvent.click(screen.getByRole("button", { name: "Server" }));
    expect(await screen.findByText("Unknown location")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Locations" })).toHaveAccessibleDescription("Unknown location");
    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription("Name is taken");
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
  });
});

describe("SelectField with options that arrive after the value", () => {
  let saved: { Action: string } | null = null;
  function Late({ options }: { options: string[] }) {
    const form = useForm({ defaultValues: { Action: "Mark" } });
    return (
      <FormProvider {...form}>
        <form onSubmit={form.handleSubmit((v) => (saved = v))} aria-label="Late" noValidate>
          <SelectField name="Action" label="Action" options={[{ value: "", label: "None" }, ...options.map((v) => ({ value: v, label: v }))]} />
          <button type="submit">Save</button>
        </form>
      </FormProvider>
    );
  }

  it("shows the stored value once its option exists, and a save keeps it", async () => {
    // First render: only "None" exists (the list is still loading), so no option is selected.
    const { rerender } = render(<Late options={[]} />);
    expect((screen.getByLabelText("Action") as HTMLSelectElement).value).toBe("");
    rerender(<Late options={["Notify", "Mark"]} />);
    expect(screen.getByLabelText("Action")).toHaveValue("Mark");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saved).not.toBeNull());
    expect(saved!.Action).toBe("Mark");
  });
});
