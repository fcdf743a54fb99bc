// The device copy of a survey in progress (issue 5 part 6): every change is written here at
// once, encrypted with AES-GCM under a non-extractable key that never leaves this browser, and
// deleted only after the server confirmed it. A kiosk hand-back wipes the whole store.
import type { Answer, SurveyRunState } from "../../lib/wasm";

const DB_NAME = "portal-survey";
const STORE = "drafts";
const KEY_ID = "key";

export interface DeviceCopy {
  run: SurveyRunState;
  answers: Record<string, Answer>;
  pageId: string;
  /** The change not yet confirmed by the server (null when in sync). */
  changeId: string | null;
  /** Submit was asked for while offline: send it when the network is back. */
  submitPending: boolean;
}

let dbPromise: Promise<IDBDatabase> | null = null;

/** One connection for the page's life (opening one per write cost most of a write's time). */
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

function tx<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const t = db.transaction(STORE, mode);
        const req = run(t.objectStore(STORE));
        t.oncomplete = () => resolve(req.result);
        t.onerror = () => reject(t.error);
      }),
  );
}

let keyPromise: Promise<CryptoKey> | null = null;

/** The device key: made once, stored as a non-extractable CryptoKey (IndexedDB keeps the
 * object, never its bytes). */
function deviceKey(): Promise<CryptoKey> {
  keyPromise ??= (async () => {
    const existing = (await tx("readonly", (s) => s.get(KEY_ID))) as CryptoKey | undefined;
    if (existing) return existing;
    const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    await tx("readwrite", (s) => s.put(key, KEY_ID));
    return key;
  })();
  keyPromise.catch(() => (keyPromise = null));
  return keyPromise;
}

const draftKey = (queueId: number) => `draft:${queueId}`;
// The survey's definition (questions and their texts: most of a copy's bytes) is sealed once per
// page and survey under its own key; each change then seals and writes only the rest (answers,
// position, revision).
const definitionKey = (queueId: number) => `definition:${queueId}`;
const definitionsWritten = new Map<number, SurveyRunState["Definition"]>();

type Sealed = { iv: Uint8Array; sealed: ArrayBuffer };
type Draft = Omit<DeviceCopy, "run"> & { run: Omit<SurveyRunState, "Definition"> };

async function seal(key: CryptoKey, value: unknown): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(JSON.stringify(value)));
  return { iv, sealed };
}

async function unseal<T>(key: CryptoKey, row: Sealed): Promise<T> {
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: row.iv as BufferSource }, key, row.sealed);
  return JSON.parse(new TextDecoder().decode(plain)) as T;
}

export async function saveDeviceCopy(queueId: number, copy: DeviceCopy): Promise<void> {
  const start = performance.now();
  const key = await deviceKey();
  const { Definition, ...run } = copy.run;
  const draftRow = await seal(key, { ...copy, run } satisfies Draft);
  const definitionRow = definitionsWritten.get(queueId) === Definition ? null : await seal(key, Definition ?? null);
  // One transaction: a draft is never stored without its definition.
  const db = await open();
  await new Promise<void>((resolve, reject) => {
    const t = db.transaction(STORE, "readwrite");
    const store = t.objectStore(STORE);
    if (definitionRow) store.put(definitionRow, definitionKey(queueId));
    store.put(draftRow, draftKey(queueId));
    t.oncomplete = () => resolve();
    t.onerror = () => reject(t.error);
  });
  definitionsWritten.set(queueId, Definition);
  // Read by the bench (bench/surveys.sh): encrypt + IndexedDB write of one change.
  performance.measure("survey-device-write", { start, end: performance.now() });
}

export async function loadDeviceCopy(queueId: number): Promise<DeviceCopy | null> {
  try {
    const draftRow = (await tx("readonly", (s) => s.get(draftKey(queueId)))) as Sealed | undefined;
    const definitionRow = (await tx("readonly", (s) => s.get(definitionKey(queueId)))) as Sealed | undefined;
    if (!draftRow) return null;
    const key = await deviceKey();
    const draft = await unseal<Draft | DeviceCopy>(key, draftRow);
    // A copy written before the definition had its own record carries it inside: keep it.
    if (!definitionRow) return "Definition" in draft.run ? (draft as DeviceCopy) : null;
    const Definition = (await unseal<SurveyRunState["Definition"] | null>(key, definitionRow)) ?? undefined;
    const copy: DeviceCopy = { ...draft, run: { ...draft.run, Definition } as SurveyRunState };
    definitionsWritten.set(queueId, copy.run.Definition);
    return copy;
  } catch {
    return null;
  }
}

export async function deleteDeviceCopy(queueId: number): Promise<void> {
  definitionsWritten.delete(queueId);
  await tx("readwrite", (s) => s.delete(draftKey(queueId)));
  await tx("readwrite", (s) => s.delete(definitionKey(queueId)));
}

/** Kiosk hand-back and idle timeout: every draft and the key go. */
export async function wipeDevice(): Promise<void> {
  keyPromise = null;
  definitionsWritten.clear();
  await tx("readwrite", (s) => s.clear());
}
