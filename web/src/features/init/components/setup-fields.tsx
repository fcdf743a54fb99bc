import type { ReactNode } from "react";

export { TEST_BANNER_MS, TestButton } from "../../../components/test-button/test-button";

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="wizard-section">
      <legend>{title}</legend>
      <div className="wizard-grid">{children}</div>
    </fieldset>
  );
}
