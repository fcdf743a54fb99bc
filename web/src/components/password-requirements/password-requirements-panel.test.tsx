import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { checkPassword } from "../../lib/wasm";
import { PasswordRequirementsPanel } from "./password-requirements-panel";

const RULES = { LenNeeded: 8, NumNeeded: 2, UcaseNeeded: 1, SymNeeded: 0, UseComplexityRequirements: true };

describe("PasswordRequirementsPanel", () => {
  it("lists each configured rule with its state from wasm-core checkPassword", () => {
    render(<PasswordRequirementsPanel check={checkPassword("Abcdefgh1", RULES)} />);
    const items = screen.getAllByRole("listitem").map((li) => li.textContent);
    expect(items).toEqual([
      "✓ At least 8 characters (met)",
      "✗ At least 2 numbers (not met)",
      "✓ At least 1 uppercase letter (met)",
    ]);
  });

  it("shows nothing when no rule applies", () => {
    const { container } = render(<PasswordRequirementsPanel check={checkPassword("x", { ...RULES, LenNeeded: 0, UseComplexityRequirements: false })} />);
    expect(container).toBeEmptyDOMElement();
  });
});
