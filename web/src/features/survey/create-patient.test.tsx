import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { ToastProvider } from "../../components/toast/toast";
import { loadSettingsRules } from "../../lib/wasm-settings";
import { CreatePatientModal, CreateStudyModal } from "./create-patient";

// The forms' rules are in the staff package, which the kiosk's staff start loads first.
beforeAll(async () => {
  await loadSettingsRules();
});

// Create patient / create study on the kiosk (spec 01 §2.5, §8) against a fake server.
const LOCATIONS = [
  { Id: "101", LocationName: "Main Campus" },
  { Id: "103", LocationName: "Westside Imaging" },
];

function answer(body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function fillPatient(dialog: HTMLElement) {
  fireEvent.change(within(dialog).getByLabelText("MRN"), { target: { value: "e2e-7" } });
  fireEvent.change(within(dialog).getByLabelText("Month"), { target: { value: "7" } });
  fireEvent.change(within(dialog).getByLabelText("Day"), { target: { value: "9" } });
  fireEvent.change(within(dialog).getByLabelText("Year"), { target: { value: "1984" } });
  fireEvent.change(within(dialog).getByLabelText("Location"), { target: { value: "103" } });
}

describe("create patient", () => {
  it("shows wasm-core's messages under the fields and sends nothing while invalid", () => {
    const fetch = answer({});
    render(
      <ToastProvider>
        <CreatePatientModal prefill={{ LastName: "Quill" }} locations={LOCATIONS} onCreated={vi.fn()} onClose={vi.fn()} />
      </ToastProvider>,
    );
    const dialog = screen.getByRole("dialog", { name: "Create patient" });
    expect(within(dialog).getByLabelText("Last name")).toHaveValue("Quill");
    expect(within(dialog).queryByText("MRN is required")).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Create patient" }));
    expect(within(dialog).getByText("MRN is required")).toBeInTheDocument();
    expect(within(dialog).getByText("First Name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Date of Birth is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Location is required")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("MRN")).toHaveAccessibleDescription("MRN is required");
    // The dialog's own texts (its Close button) may load the language's labels; nothing else goes out.
    const sent = fetch.mock.calls.map((call: unknown[]) => String(call[0])).filter((url) => !url.includes("/api/Configuration/LoadLabelValues"));
    expect(sent).toEqual([]);
  });

  it("sends the form, toasts 'Patient was created successfully {mrn}' and hands the patient on", async () => {
    const fetch = answer({ Error: false, ErrorMessage: "", Result: { Ssn: "E2E-7" }, Errors: {} });
    const onCreated = vi.fn();
    render(
      <ToastProvider>
        <CreatePatientModal prefill={{ FirstName: "Ada", LastName: "Quill" }} locations={LOCATIONS} onCreated={onCreated} onClose={vi.fn()} />
      </ToastProvider>,
    );
    const dialog = screen.getByRole("dialog", { name: "Create patient" });
    fillPatient(dialog);
    fireEvent.click(within(dialog).getByRole("button", { name: "Create patient" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Patient was created successfully E2E-7");
    expect(onCreated).toHaveBeenCalledWith({ Ssn: "E2E-7" }, expect.objectContaining({ Ssn: "e2e-7", Dob: "1984-07-09", Location: "103" }));
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe("/magview.api/patient/add");
    expect(init.method).toBe("PUT");
    expect(JSON.parse(init.body as string)).toMatchObject({ Ssn: "e2e-7", FirstName: "Ada", LastName: "Quill", Dob: "1984-07-09", Location: "103" });
  });

  it("toasts the server's ErrorMessage and shows it under the MRN", async () => {
    const taken = "A patient with this MRN already exists";
    answer({ Error: true, ErrorMessage: taken, Result: null, Errors: { Ssn: [taken] } });
    const onCreated = vi.fn();
    render(
      <ToastProvider>
        <CreatePatientModal prefill={{ FirstName: "Ada", LastName: "Quill" }} locations={LOCATIONS} onCreated={onCreated} onClose={vi.fn()} />
      </ToastProvider>,
    );
    const dialog = screen.getByRole("dialog", { name: "Create patient" });
    fillPatient(dialog);
    fireEvent.click(within(dialog).getByRole("button", { name: "Create patient" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(taken);
    expect(within(dialog).getByLabelText("MRN")).toHaveAccessibleDescription(taken);
    expect(onCreated).not.toHaveBeenCalled();
  });

  it("is refused offline with the no-internet text", async () => {
    const fetch = answer({});
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    render(
      <ToastProvider>
        <CreatePatientModal prefill={{ FirstName: "Ada", LastName: "Quill" }} locations={LOCATIONS} onCreated={vi.fn()} onClose={vi.fn()} />
      </ToastProvider>,
    );
    const dialog = screen.getByRole("dialog", { name: "Create patient" });
    fillPatient(dialog);
    fireEvent.click(within(dialog).getByRole("button", { name: "Create patient" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("No internet connnection. Please try again later");
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("create study", () => {
  it("needs a location, then toasts the patient's MRN and hands on the new study", async () => {
    const fetch = answer({ Error: false, ErrorMessage: "", Result: { Ssn: "100010", RespondentEntityId: "77" }, Errors: {} });
    const onCreated = vi.fn();
    render(
      <ToastProvider>
        <CreateStudyModal respondentId="100010" patientName="Ada Quill" location="" locations={LOCATIONS} onCreated={onCreated} onClose={vi.fn()} />
      </ToastProvider>,
    );
    const dialog = screen.getByRole("dialog", { name: "Create study" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create study" }));
    expect(within(dialog).getByText("Location is required")).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText("Location"), { target: { value: "101" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create study" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith({ Ssn: "100010", RespondentEntityId: "77" }, "101"));
    expect(screen.getByRole("status")).toHaveTextContent("Patient was created successfully 100010");
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect([path, init.method]).toEqual(["/magview.api/studies/create", "PUT"]);
    expect(JSON.parse(init.body as string)).toMatchObject({ RespondentId: "100010", Location: "101" });
  });
});
