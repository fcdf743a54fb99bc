import type { PinCheckResponse } from "../../../lib/wasm";
import { surveyRequest } from "./http";

/** GET /api/surveyIdentity/checkPin (spec 01 §2.5). */
export function checkPin(pin: string): Promise<PinCheckResponse> {
  return surveyRequest<PinCheckResponse>("GET", `/api/surveyIdentity/checkPin?pin=${encodeURIComponent(pin)}`);
}
