import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api-client";
import type { AlternateIdentifierColumns } from "../../lib/wire";

/** spec 04 §7 CheckForAvailableAlternateIdentifierColumns: which users-table column each
 * alternate identifier (the saved AlternateUserIdentifierField first) is found in. */
export function AlternateIdentifierCheck() {
  const check = useQuery({
    queryKey: ["techpad", "alternate-identifier-columns"],
    queryFn: ({ signal }) =>
      api.get<AlternateIdentifierColumns>("/api/techpadSettings/CheckForAvailableAlternateIdentifierColumns", { signal }),
    enabled: false,
  });
  return (
    <div className="tp-alternate">
      <button type="button" className="button" onClick={() => void check.refetch()} disabled={check.isFetching}>
        Check available columns
      </button>
      {check.data && (
        <ul className="tp-found" role="status" aria-label="Available columns">
          {Object.entries(check.data).map(([candidate, column]) => (
            <li key={candidate}>
              {candidate}: {column ? <strong>{column}</strong> : "not found"}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
