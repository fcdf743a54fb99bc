import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { LoginForm } from "./login-form";
import { ApiFailure } from "../../lib/api-client";
import { describeHttpError, type LoginRequest, type LoginResponse } from "../../lib/wasm";

const valid: LoginResponse = { IsValid: true, IsAskUsername: false, ValidationErrors: [] };

function setup(onLogin = vi.fn<(r: LoginRequest) => Promise<LoginResponse>>().mockResolvedValue(valid)) {
  const onSignedIn = vi.fn();
  render(<LoginForm onLogin={onLogin} onSignedIn={onSignedIn} />);
  return { onLogin, onSignedIn };
}
function fill(user: string, password: string) {
  fireEvent.change(screen.getByLabelText("Username or Email"), { target: { value: user } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
}

describe("LoginForm", () => {
  it("shows wasm-core's messages under empty fields and does not call the server", async () => {
    const { onLogin } = setup();
    fireEvent.click(screen.getByRole("button", { name: "Log In" }));
    expect(await screen.findByText("Username or email is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Username or Email")).toHaveAttribute("aria-invalid", "true");
    expect(onLogin).not.toHaveBeenCalled();

    // Messages follow the fields once the user starts fixing them.
    fireEvent.change(screen.getByLabelText("Username or Email"), { target: { value: "jane.doe" } });
    expect(screen.queryByText("Username or email is required")).toBeNull();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
  });

  it("submits with Enter and reports a valid sign-in", async () => {
    const { onLogin, onSignedIn } = setup();
    fill("jane.doe", "Portal!2026");
    fireEvent.submit(screen.getByLabelText("Password").closest("form")!);
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(onLogin).toHaveBeenCalledWith(expect.objectContaining({ usernameOrEmail: "jane.doe", password: "Portal!2026" }));
  });

  it("shows and hides the password", () => {
    setup();
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    fireEvent.click(screen.getByRole("button", { name: "Show password" }));
    expect(password).toHaveAttribute("type", "text");
    fireEvent.click(screen.getByRole("button", { name: "Hide password" }));
    expect(password).toHaveAttribute("type", "password");
  });

  it("shows the server's messages when the credentials are refused", async () => {
    setup(
      vi.fn().mockResolvedValue({
        IsValid: false,
        IsAskUsername: false,
        ValidationErrors: ["The user name or password provided is incorrect."],
      }),
    );
    fill("jane.doe", "wrong");
    fireEvent.click(screen.getByRole("button", { name: "Log In" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The user name or password provided is incorrect.");
  });

  it("asks for a username when the server wants one", async () => {
    setup(vi.fn().mockResolvedValue({ IsValid: false, IsAskUsername: true, ValidationErrors: [] }));
    fill("shared@example.com", "Portal!2026");
    fireEvent.click(screen.getByRole("button", { name: "Log In" }));
    const userName = await screen.findByLabelText("Username");
    expect(screen.getByLabelText("Username or Email")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Password")).toHaveValue("");
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "Portal!2026" } });
    fireEvent.click(screen.getByRole("button", { name: "Log In" }));
    expect(await screen.findByText("Username is required")).toBeInTheDocument();
    expect(userName).toHaveAttribute("aria-invalid", "true");
  });

  it("shows the server's field messages from a 400 under the fields", async () => {
    const body = JSON.stringify({ Title: "Bad Request", Message: "Invalid", ErrorId: "x", Errors: { password: ["Password is required"] } });
    setup(vi.fn().mockRejectedValue(new ApiFailure(400, describeHttpError(400, body))));
    fill("jane.doe", " ");
    fireEvent.click(screen.getByRole("button", { name: "Log In" }));
    expect(await screen.findByText("Password is required")).toBeInTheDocument();
  });

  it("opens a 'Login Error' dialog when the call fails", async () => {
    const body = JSON.stringify({ Title: "Server Error", Message: "The database is not reachable.", ErrorId: "e-77" });
    setup(vi.fn().mockRejectedValue(new ApiFailure(500, describeHttpError(500, body))));
    fill("jane.doe", "Portal!2026");
    fireEvent.click(screen.getByRole("button", { name: "Log In" }));
    const dialog = await screen.findByRole("dialog", { name: "Login Error" });
    expect(dialog).toHaveTextContent("The database is not reachable.");
    expect(dialog).toHaveTextContent("e-77");
  });
});
