import { useEffect, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import type { ConnectionTestResult } from "../../../lib/wasm";

/** Success banners of the test buttons vanish after this long (spec 02 §9); failures stay. */
export const TEST_BANNER_MS = 4000;

/** A test button and its banner: success (hidden after 4 s), warning, or failure with the
 * server's error (both stay). */
export function TestButton({ label, run }: { label: string; run: () => Promise<ConnectionTestResult> }) {
  const test = useMutation({
    mutationFn: async (): Promise<ConnectionTestResult> => {
      try {
        return await run();
      } catch (err) {
        return { success: false, isDataBaseExist: false, message: "Test Connection Failed", error: (err as Error).message };
      }
    },
  });
  const result = test.data;
  const { reset } = test;
  useEffect(() => {
    if (!result || !result.success || !result.isDataBaseExist) return;
    const timer = window.setTimeout(reset, TEST_BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [result, reset]);
  const tone = !result ? "" : !result.success ? "alert-error" : result.isDataBaseExist ? "alert-success" : "alert-warning";
  return (
    <div className="test-row">
      <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending ? "Testing…" : label}
      </button>
      {result && (
        <div className={`alert ${tone}`} role={result.success ? "status" : "alert"}>
          <strong>{result.message}</strong>
          {result.error && <div className="test-error">{result.error}</div>}
        </div>
      )}
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="wizard-section">
      <legend>{title}</legend>
      <div className="wizard-grid">{children}</div>
    </fieldset>
  );
}
