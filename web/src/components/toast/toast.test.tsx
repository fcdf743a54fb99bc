import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { ToastProvider, useToast } from "./toast";

function Buttons() {
  const toast = useToast();
  return (
    <>
      <button onClick={() => toast.success("Password successfully updated.")}>ok</button>
      <button onClick={() => toast.error("Error on changing password.")}>fail</button>
    </>
  );
}

describe("toasts", () => {
  it("announces success politely and errors as alerts, then go away by themselves", () => {
    vi.useFakeTimers();
    try {
      render(
        <ToastProvider durationMs={3000}>
          <Buttons />
        </ToastProvider>,
      );
      fireEvent.click(screen.getByRole("button", { name: "ok" }));
      fireEvent.click(screen.getByRole("button", { name: "fail" }));
      expect(screen.getByRole("status")).toHaveTextContent("Password successfully updated.");
      expect(screen.getByRole("alert")).toHaveTextContent("Error on changing password.");
      act(() => vi.advanceTimersByTime(3000));
      expect(screen.queryByRole("status")).toBeNull();
      expect(screen.queryByRole("alert")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("can be dismissed at once", () => {
    render(
      <ToastProvider>
        <Buttons />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "ok" }));
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("status")).toBeNull();
  });
});
