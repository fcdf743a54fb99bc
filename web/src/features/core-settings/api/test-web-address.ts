import { api } from "../../../lib/api-client";
import { webAddressTestUrl } from "../../../lib/wasm-settings";

/** spec 03 §7 GET /api/connectionTest/testProxyAppWebAddress?address and
 * testLuminaryOneWebAddress?address: the server calls the address (a trailing slash added);
 * true when it answers, false on any error. */
export function testWebAddress(kind: "ProxyApp" | "LuminaryOne", address: string): Promise<boolean> {
  const query = new URLSearchParams({ address: webAddressTestUrl(address) });
  return api.get<boolean>(`/api/connectionTest/test${kind}WebAddress?${query.toString()}`, { report: false });
}
