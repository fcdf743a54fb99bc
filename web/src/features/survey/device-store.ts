// The device copy of a survey in progress (issue 5 part 6): every change is written at once,
// encrypted, into IndexedDB (device-vault.ts), and deleted only after the server confirmed it. A
// kiosk hand-back wipes the whole store. The writing happens in a worker (device-worker.ts): the
// page only posts the change, so a busy page does not hold an answer back from the disk.
import type { Answer, SurveyRunState } from "../../lib/wasm";
import { runRequest, type VaultRequest } from "./device-vault";
import type { WorkerReply, WorkerRequest } from "./device-worker";

export interface DeviceCopy {
  run: SurveyRunState;
  answers: Record<string, Answer>;
  pageId: string;
  /** The change not yet confirmed by the server (null when in sync). */
  changeId: string | null;
  /** Submit was asked for while offline: send it when the network is back. */
  submitPending: boolean;
}

type Draft = Omit<DeviceCopy, "run"> & { run: Omit<SurveyRunState, "Definition"> };
type Waiting = { req: VaultRequest; resolve: (reply: WorkerReply) => void };

let worker: Worker | null = null;
let workerFailed = false;
let nextId = 1;
const waiting = new Map<number, Waiting>();
// Requests run in the page (no worker), one after another like the worker runs them.
let inPage: Promise<unknown> = Promise.resolve();

function runInPage(id: number, req: VaultRequest): Promise<WorkerReply> {
  const done = inPage.then(() => runRequest(req));
  inPage = done.catch(() => undefined);
  return done.then(
    (value): WorkerReply => ({ id, ok: true, value, doneAt: performance.timeOrigin + performance.now() }),
    (err: unknown): WorkerReply => ({ id, ok: false, error: String(err) }),
  );
}

/** The worker, started on first use; null where none can start (the page then does the work). */
function deviceWorker(): Worker | null {
  if (worker || workerFailed) return worker;
  try {
    worker = new Worker(new URL("./device-worker.ts", import.meta.url), { type: "module" });
  } catch {
    workerFailed = true;
    return null;
  }
  worker.onmessage = (event: MessageEvent<WorkerReply>) => {
    const entry = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    entry?.resolve(event.data);
  };
  // A worker that cannot load (its script missing from an old cache, say) loses nothing: what it
  // was asked is done in the page, in the same order.
  worker.onerror = () => {
    worker?.terminate();
    worker = null;
    workerFailed = true;
    const left = [...waiting.entries()].sort(([a], [b]) => a - b);
    waiting.clear();
    for (const [id, entry] of left) void runInPage(id, entry.req).then(entry.resolve);
  };
  return worker;
}

/** Sends one request (at once, synchronously: the order of calls is the order of writes). */
function ask(req: VaultRequest): Promise<WorkerReply> {
  const id = nextId++;
  const w = deviceWorker();
  if (!w) return runInPage(id, req);
  return new Promise<WorkerReply>((resolve) => {
    waiting.set(id, { req, resolve });
    w.postMessage({ ...req, id } satisfies WorkerRequest);
  });
}

async function value(req: VaultRequest): Promise<unknown> {
  const reply = await ask(req);
  if (!reply.ok) throw new Error(reply.error);
  return reply.value;
}

// The definition last sent for each survey: it is sealed once per survey, not with every change.
const definitionsSent = new Map<number, SurveyRunState["Definition"]>();

/** Starts the worker, opens the store and reads the key while the patient reads the page: the
 * first answer then costs what any other does. */
export function prepareDeviceStore(): void {
  void ask({ op: "prepare" });
}

export async function saveDeviceCopy(queueId: number, copy: DeviceCopy): Promise<void> {
  const start = performance.now();
  const { Definition, ...run } = copy.run;
  const draft: Draft = { ...copy, run };
  const definition = definitionsSent.get(queueId) === Definition ? undefined : { value: Definition ?? null };
  definitionsSent.set(queueId, Definition);
  const reply = await ask({ op: "save", queueId, draft, definition });
  if (!reply.ok) throw new Error(reply.error);
  // Read by the bench (bench/surveys.sh): from the change to its committed, encrypted write.
  const end = Math.max(start, reply.doneAt - performance.timeOrigin);
  performance.measure("survey-device-write", { start, end });
}

export async function loadDeviceCopy(queueId: number): Promise<DeviceCopy | null> {
  try {
    const stored = (await value({ op: "load", queueId })) as { draft: Draft | DeviceCopy; definition?: unknown } | null;
    if (!stored) return null;
    const { draft } = stored;
    // A copy written before the definition had its own record carries it inside: keep it.
    if (!("definition" in stored)) return "Definition" in draft.run ? (draft as DeviceCopy) : null;
    const Definition = (stored.definition as SurveyRunState["Definition"] | null) ?? undefined;
    const copy: DeviceCopy = { ...draft, run: { ...draft.run, Definition } as SurveyRunState };
    definitionsSent.set(queueId, copy.run.Definition);
    return copy;
  } catch {
    return null;
  }
}

export async function deleteDeviceCopy(queueId: number): Promise<void> {
  definitionsSent.delete(queueId);
  await value({ op: "delete", queueId });
}

/** Kiosk hand-back and idle timeout: every draft and the key go. */
export async function wipeDevice(): Promise<void> {
  definitionsSent.clear();
  await value({ op: "wipe" });
}
