import { api } from "../../../lib/api-client";
import type { CanImpersonate, SuccessResult } from "../../../lib/wire";

export function canImpersonate(id: number): Promise<CanImpersonate> {
  return api.get<CanImpersonate>(`/api/staffUser/CanImpersonate?id=${id}`);
}

export function impersonate(id: number): Promise<SuccessResult> {
  return api.post<SuccessResult>(`/api/user/${id}/impersonate`, {});
}

export function cancelImpersonation(): Promise<SuccessResult> {
  return api.get<SuccessResult>("/api/staffUser/cancelImpersonation");
}
