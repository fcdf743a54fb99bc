import { formatDate, zoneOf } from "../../lib/wasm";

/** A log instant as 'MM/DD/YYYY, hh:mm:ss A' in the viewer's zone (spec 01 §9). */
export function logDate(iso: string): string {
  if (!iso) return "";
  const zone = zoneOf(iso);
  return formatDate(iso, "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
}
