import { useEffect } from "react";
import { useMutation } from "@tanstack/react-query";
import type { ConnectionTestResult } from "../../lib/wasm";
import "./test-button.css";

/** Success banners of the test buttons vanish after this long (spec 02 §9, spec 03 §4 and §9);
 * warnings and failures stay. */
export const TEST_BANNER_MS = 4000;
/** spec 03 §8. */
export const CONNECTION_OK = "Connection successfully established";
export const CONNECTION_FAILED = "Test Connection Failed";

/** A boolean web address answer (spec 03 §7: "An error yields false") as a banner. */
export function fromAnswer(answered: boolean): ConnectionTestResult {
  return answered
    ? { success: true, isDataBaseExist: true, message: CONNECTION_OK, error: undefined }
    : { success: false, isDataBaseExist: false, message: CONNECTION_FAILED, error: undefined };
}

/** A test button and its banner: success (hidden after 4 s), warning (the database will be
 * created), or failure with the server's error (both stay). Disabled while `disabled` (spec 03
 * §5: while the field it tests is empty) or while it runs. */
export function TestButton({ label, run, disabled = false }: { label: string; run: () => Promise<ConnectionTestResult>; disabled?: boolean }) {
  const test = useMutation({
    mutationFn: async (): Promise<ConnectionTestResult> => {
      try {
        return await run();
      } catch (err) {
        return { success: false, isDataBaseExist: false, message: CONNECTION_FAILED, error: (err as Error).message };
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
      <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending || disabled}>
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
