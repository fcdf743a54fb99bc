import { publicWebAddressTestUrl } from "../../../lib/wasm-settings";
import { CONNECTION_FAILED, CONNECTION_OK } from "../../../components/test-button/test-button";
import type { ConnectionTestResult } from "../../../lib/wasm";

/** How long the browser waits for the public address to answer. */
const TIMEOUT_MS = 5000;

/** spec 03 §7 GET {publicAddress}api/configuration/TestPublicWebAddress, called by the browser on
 * the address itself (http:// and the trailing slash added by wasm-core): this portal answers
 * true there. Any other answer, or none within 5 s, is a failure. */
export async function testPublicWebAddress(address: string): Promise<ConnectionTestResult> {
  const url = publicWebAddressTestUrl(address);
  const fail = (error: string): ConnectionTestResult => ({ success: false, isDataBaseExist: false, message: CONNECTION_FAILED, error });
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), credentials: "omit" });
    if (!response.ok) return fail(`${url} answered ${response.status}`);
    const answer: unknown = await response.json().catch(() => null);
    return answer === true
      ? { success: true, isDataBaseExist: true, message: CONNECTION_OK, error: undefined }
      : fail(`${url} is not this portal`);
  } catch (err) {
    return fail(`${url}: ${(err as Error).name === "TimeoutError" ? "no answer within 5 s" : (err as Error).message}`);
  }
}
