// The device copy's worker: seals and writes each change in its own thread, in the order the page
// sent them, so that an answer reaches IndexedDB in a few milliseconds even while the page is busy
// rendering, evaluating rules or uploading (issue 5: autosave p95 under 16 ms).
import { runRequest, type VaultRequest } from "./device-vault";

export type WorkerRequest = VaultRequest & { id: number };
/** `doneAt` is when the request's transaction committed, on the clock shared with the page
 * (timeOrigin + now), so the page can measure a write from the moment it asked for it. */
export type WorkerReply = { id: number; ok: true; value: unknown; doneAt: number } | { id: number; ok: false; error: string };

type Chain = { supersededBy?: QueuedSave; answersAlso: number[] };
type QueuedSave = Extract<WorkerRequest, { op: "save" }> & Chain;
type Queued = WorkerRequest & Chain;

// The last request received for each survey: a save still waiting when a newer save of the same
// survey arrives is skipped, and answered when the newer one (which holds all its answers) lands.
const lastForSurvey = new Map<number, Queued>();
let queue: Promise<void> = Promise.resolve();

function reply(message: WorkerReply) {
  (self as unknown as Worker).postMessage(message);
}

async function run(req: Queued): Promise<void> {
  if (req.op === "save" && req.supersededBy) {
    const newer = req.supersededBy;
    // The definition travels only with the first save after it changed: pass it on.
    if (req.definition && !newer.definition) newer.definition = req.definition;
    newer.answersAlso.push(req.id, ...req.answersAlso);
    return;
  }
  if ("queueId" in req && lastForSurvey.get(req.queueId) === req) lastForSurvey.delete(req.queueId);
  try {
    const value = await runRequest(req);
    const doneAt = performance.timeOrigin + performance.now();
    for (const id of [req.id, ...req.answersAlso]) reply({ id, ok: true, value, doneAt });
  } catch (err) {
    for (const id of [req.id, ...req.answersAlso]) reply({ id, ok: false, error: String(err) });
  }
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const req: Queued = { ...event.data, answersAlso: [] };
  if (req.op === "wipe") {
    lastForSurvey.clear();
  } else if (req.op !== "prepare") {
    const previous = lastForSurvey.get(req.queueId);
    if (req.op === "save" && previous?.op === "save") previous.supersededBy = req;
    lastForSurvey.set(req.queueId, req);
  }
  queue = queue.then(() => run(req));
};
