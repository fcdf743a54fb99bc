import { useEffect } from "react";
import { useMutation } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import { TEST_BANNER_MS } from "../../../components/test-button/test-button";
import type { Sso } from "../../../lib/wasm";
import { checkAlternativeIdColumn } from "../api/sso-configuration";

/** The alternate-id column test (spec 03 §4, §8): 'Column Exist' or 'Column Not Exist', cleared
 * after 4 seconds either way. */
export function AlternateIdColumnTest() {
  const [enabled, column] = useWatch<Sso>({ name: ["EnableSsoByAlternateId", "SsoAlternateIdColumn"] }) as [boolean, string];
  const test = useMutation({ mutationFn: () => checkAlternativeIdColumn(column ?? "") });
  const { data, reset } = test;
  useEffect(() => {
    if (!data) return;
    const timer = window.setTimeout(reset, TEST_BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [data, reset]);
  if (!enabled) return null;
  return (
    <div className="test-row">
      <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending || !column?.trim()}>
        {test.isPending ? "Testing…" : "Test Column"}
      </button>
      {data && (
        <div className={`alert ${data.IsSuccess ? "alert-success" : "alert-error"}`} role="status">
          <strong>{data.Message}</strong>
        </div>
      )}
    </div>
  );
}
