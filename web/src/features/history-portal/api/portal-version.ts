import { api } from "../../../lib/api-client";

export interface PortalVersionInformation {
  PortalVersion: string;
  SurveyVersion: string;
  TechpadVersion: string;
  ExpectedComVersion: string;
  InstalledComVersion: string;
  ComCompatible: string;
  ExpectedLuminaryOneVersion: string;
}

/** The build's versions (GET /api/admin/GetPortalVersionInformation, program managers). */
export function fetchPortalVersion(signal?: AbortSignal): Promise<PortalVersionInformation> {
  return api.get<PortalVersionInformation>("/api/admin/GetPortalVersionInformation", { signal });
}
