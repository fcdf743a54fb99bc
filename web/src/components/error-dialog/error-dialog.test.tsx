import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { ErrorDialog } from "./error-dialog";
import { describeHttpError } from "../../lib/wasm";

// The dialog shows what the real wasm-core makes of a failed response (spec 01 §8).
describe("ErrorDialog", () => {
  it("shows title, message, error id with the administrator note, and the stack trace", () => {
    const body = JSON.stringify({
      Title: "Server Error",
      Message: "Something went wrong.",
      ErrorId: "e-1234",
      StackTrace: "at portal::routes::letters",
    });
    const onClose = vi.fn();
    render(<ErrorDialog error={describeHttpError(500, body)} onClose={onClose} />);
    const dialog = screen.getByRole("dialog", { name: "Server Error" });
    expect(dialog).toHaveTextContent("Something went wrong.");
    expect(dialog).toHaveTextContent("e-1234");
    expect(dialog).toHaveTextContent("Please contact the system administrator");
    expect(screen.getByText("Stack trace")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("at portal::routes::letters");
    fireEvent.click(screen.getByRole("button", { name: "OK" }));
    expect(onClose).toHaveBeenCalled();
  });

  it("uses the response's own title for a 400 and lists field messages", () => {
    const body = JSON.stringify({
      Title: "Validation failed",
      Message: "The request is not valid.",
      ErrorId: "e-9",
      Errors: { password: ["Password is required"] },
    });
    render(<ErrorDialog error={describeHttpError(400, body)} onClose={() => {}} />);
    const dialog = screen.getByRole("dialog", { name: "Validation failed" });
    expect(dialog).toHaveTextContent("Password is required");
    expect(screen.queryByText("Stack trace")).toBeNull();
  });

  it("shows '404 Not Found' titled 'Server Error' for a 404", () => {
    render(<ErrorDialog error={describeHttpError(404, "")} onClose={() => {}} />);
    expect(screen.getByRole("dialog", { name: "Server Error" })).toHaveTextContent("404 Not Found");
  });

  it("closes with Escape", () => {
    const onClose = vi.fn();
    render(<ErrorDialog error={describeHttpError(500, "")} onClose={onClose} />);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
  });

  it("maps a 401 to a redirect to the patient login, not a dialog", () => {
    const mapped = describeHttpError(401, "");
    expect(mapped.Kind).toBe("Redirect");
    expect(mapped.RedirectTo).toBe("/patient/login");
  });
});
