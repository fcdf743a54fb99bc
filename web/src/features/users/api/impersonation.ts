import { api } from "../../../lib/api-client";

export interface CanImpersonate {
  CanImpersonate: boolean;
  Message: string;
}

export function canImpersonate(id: number): Promise<CanImpersonate> {
  return api.get<CanImpersonate>(`/api/staffUser/CanImpersonate?id=${id}`);
}

export function impersonate(id: number): Promise<{ IsSuccess: boolean }> {
  return api.post(`/api/user/${id}/impersonate`, {});
}

export function cancelImpersonation(): Promise<{ IsSuccess: boolean }> {
  return api.get("/api/staffUser/cancelImpersonation");
}
