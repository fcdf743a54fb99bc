import { api } from "../../../lib/api-client";
import type { SetupConfiguration } from "../../../lib/wasm";

/** The stored setup configuration; secrets come back empty, named in StoredSecrets. */
export function loadConfiguration(): Promise<SetupConfiguration> {
  return api.get<SetupConfiguration>("/api/configuration/loadConfiguration");
}
