// The sealed IndexedDB store behind the device copy (issue 5 part 6). It runs in the device
// worker (device-worker.ts), where a write never waits behind the page's rendering, rules and
// network work; device-store.ts runs it in the page only where no worker can start.
// Values are sealed with AES-GCM under a non-extractable key that never leaves this browser.

const DB_NAME = "portal-survey";
const STORE = "drafts";
const KEY_ID = "key";

let dbPromise: Promise<IDBDatabase> | null = null;

/** One connection for the context's life (opening one per write cost most of a write's time). */
function open(): Promise<IDBDatabase> {
  dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  dbPromise.catch(() => (dbPromise = null));
  return dbPromise;
}

/** One read-write or read-only transaction; resolves when it has committed. */
async function inTransaction<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  const db = await open();
  return new Promise<T | undefined>((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const req = run(t.objectStore(STORE));
    t.oncomplete = () => resolve(req ? req.result : undefined);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error);
  });
}

let keyPromise: Promise<CryptoKey> | null = null;

/** The device key: made once, stored as a non-extractable CryptoKey (IndexedDB keeps the
 * object, never its bytes). */
function deviceKey(): Promise<CryptoKey> {
  keyPromise ??= (async () => {
    const existing = (await inTransaction("readonly", (s) => s.get(KEY_ID))) as CryptoKey | undefined;
    if (existing) return existing;
    const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    await inTransaction("readwrite", (s) => s.put(key, KEY_ID));
    return key;
  })();
  keyPromise.catch(() => (keyPromise = null));
  return keyPromise;
}

type Sealed = { iv: Uint8Array; sealed: ArrayBuffer };

async function seal(key: CryptoKey, value: unknown): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(JSON.stringify(value)));
  return { iv, sealed };
}

async function unseal(key: CryptoKey, row: Sealed): Promise<unknown> {
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: row.iv as BufferSource }, key, row.sealed);
  return JSON.parse(new TextDecoder().decode(plain));
}

const draftKey = (queueId: number) => `draft:${queueId}`;
// The survey's definition (questions and their texts: most of a copy's bytes) has its own record,
// sealed once per survey; each change then seals and writes only the draft (answers, position,
// revision).
const definitionKey = (queueId: number) => `definition:${queueId}`;

// Definitions whose write failed, kept for the survey's next write.
const unwrittenDefinitions = new Map<number, { value: unknown }>();

/** Writes a survey's draft, and its definition when given, in one transaction: a draft is never
 * stored without its definition. */
export async function saveSealed(queueId: number, draft: unknown, given?: { value: unknown }): Promise<void> {
  // The page sends a definition once; if that write failed, the next one carries it again.
  const definition = given ?? unwrittenDefinitions.get(queueId);
  try {
    const key = await deviceKey();
    const draftRow = await seal(key, draft);
    const definitionRow = definition ? await seal(key, definition.value) : null;
    await inTransaction("readwrite", (store) => {
      if (definitionRow) store.put(definitionRow, definitionKey(queueId));
      store.put(draftRow, draftKey(queueId));
    });
    unwrittenDefinitions.delete(queueId);
  } catch (err) {
    if (definition) unwrittenDefinitions.set(queueId, definition);
    throw err;
  }
}

/** The stored draft and definition of a survey (`definition` undefined when it has no record of
 * its own: copies written before the split carry it inside the draft). */
export async function loadSealed(queueId: number): Promise<{ draft: unknown; definition?: unknown } | null> {
  const [draftRow, definitionRow] = await Promise.all([
    inTransaction("readonly", (s) => s.get(draftKey(queueId))) as Promise<Sealed | undefined>,
    inTransaction("readonly", (s) => s.get(definitionKey(queueId))) as Promise<Sealed | undefined>,
  ]);
  if (!draftRow) return null;
  const key = await deviceKey();
  const draft = await unseal(key, draftRow);
  return definitionRow ? { draft, definition: await unseal(key, definitionRow) } : { draft };
}

export async function deleteSealed(queueId: number): Promise<void> {
  unwrittenDefinitions.delete(queueId);
  await inTransaction("readwrite", (s) => {
    s.delete(draftKey(queueId));
    s.delete(definitionKey(queueId));
  });
}

/** Every draft and the key go (kiosk hand-back, idle timeout). */
export async function wipeSealed(): Promise<void> {
  keyPromise = null;
  unwrittenDefinitions.clear();
  await inTransaction("readwrite", (s) => s.clear());
}

/** Opens the database and reads (or makes) the key ahead of the first change, so that the
 * first answer after a page load costs what any other does. */
export async function prepare(): Promise<void> {
  await deviceKey();
}

/** The operations the page asks of the store, in the order it asked them. */
export type VaultRequest =
  | { op: "prepare" }
  | { op: "save"; queueId: number; draft: unknown; definition?: { value: unknown } }
  | { op: "load"; queueId: number }
  | { op: "delete"; queueId: number }
  | { op: "wipe" };

export function runRequest(req: VaultRequest): Promise<unknown> {
  switch (req.op) {
    case "prepare":
      return prepare();
    case "save":
      return saveSealed(req.queueId, req.draft, req.definition);
    case "load":
      return loadSealed(req.queueId);
    case "delete":
      return deleteSealed(req.queueId);
    case "wipe":
      return wipeSealed();
  }
}
