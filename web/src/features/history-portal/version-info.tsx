import { useEffect, useState } from "react";
import { useSession } from "../../app/session";
import { fetchPortalVersion } from "./api/portal-version";
import type { PortalVersionInformation } from "../../lib/wire";

/** The version info block of the History Portal, for program managers (spec 01 §2.6). */
export function VersionInfo() {
  const { state } = useSession();
  const isManager = state.status === "signed-in" && state.info.permissions.IsProgramManager;
  const [info, setInfo] = useState<PortalVersionInformation | null>(null);
  useEffect(() => {
    if (!isManager) return;
    const abort = new AbortController();
    fetchPortalVersion(abort.signal).then(setInfo).catch(() => {});
    return () => abort.abort();
  }, [isManager]);
  if (!isManager || !info) return null;
  const incompatible = info.ComCompatible !== "True";
  const rows: [string, string, boolean?][] = [
    ["Portal version", info.PortalVersion],
    ["Survey version", info.SurveyVersion],
    ["TechPad version", info.TechpadVersion],
    ["Expected COM version", info.ExpectedComVersion],
    ["Installed COM version", info.InstalledComVersion, incompatible],
    ["COM compatible", info.ComCompatible, incompatible],
    ["Expected LuminaryOne version", info.ExpectedLuminaryOneVersion],
  ];
  return (
    <aside className="version-info" aria-label="Version information">
      <dl>
        {rows.map(([label, value, red]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={red ? "incompatible" : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
