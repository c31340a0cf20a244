// The preview worker thread: owns the index engine (synchronous SQLite + in-memory columns) so the host's main thread never waits for it.
import { parentPort, workerData } from 'node:worker_threads';
import { AssayError, isAssayError } from '../engine/errors.js';
import { setInterruptCheck } from '../engine/index/interrupt.js';
import { forgetComparisons, isComposed } from './compare-docs.js';
import { openPreviewEngine } from './engine-adapter.js';
import { HostError } from './errors.js';
import { callEngine, type PreviewEngineLike } from './index-service.js';
import type { CallMessage, PreviewWorkerData, ReplyMessage, WireError } from './preview-protocol.js';
import { summarize } from './preview-status.js';

const data = workerData as PreviewWorkerData;
const flag = new Int32Array(data.flag);
let engine: PreviewEngineLike | null = null;
/** The sample live previews run on when the index is larger than the policy's bound (opened on first use). */
let sampled: PreviewEngineLike | null = null;
/** Documents in the index (asked once per load: status() would stat every file on every preview). */
let indexDocs: number | null = null;
let running = -1;

// The engine's loops call this between units of work: a bumped generation means a newer preview superseded this call.
setInterruptCheck(() => {
  if (Atomics.load(flag, 0) !== running) throw new AssayError('CANCELLED', 'superseded by a newer preview');
});

/** Recipes interpolate `${oc.env:…}` from process.env: in this thread it holds only what the workspace allows. */
function replaceEnv(env: Record<string, string>): void {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  if (engine) forgetRecipes(engine);
  if (sampled) forgetRecipes(sampled);
}

/**
 * The engine caches parsed recipes and their analyses by recipe text, and the same text interpolates
 * differently under another environment: drop those two caches (columns and rule results, keyed by
 * resolved values, stay). Should the engine's fields ever be renamed, a reload is the safe, slower way.
 */
function forgetRecipes(e: PreviewEngineLike): void {
  forgetComparisons(e);
  const caches = ['recipes', 'analyses'].map((k) => (e as unknown as Record<string, { clear?: unknown } | undefined>)[k]);
  if (caches.every((c) => typeof c?.clear === 'function')) for (const c of caches) (c as { clear(): void }).clear();
  else e.reload();
}

function open(): PreviewEngineLike {
  return (engine ??= openPreviewEngine(data.root));
}

/**
 * The engine a preview runs on: the sample when the policy asks for one and the index is larger than its
 * bound, unless the call asks for exact figures (`{exact: true}`, which the engine itself does not take).
 */
function previewCall(args: unknown[]): { e: PreviewEngineLike; args: unknown[] } {
  const [text, opts] = args as [unknown, ({ exact?: boolean } & Record<string, unknown>) | undefined];
  const { exact, ...rest } = opts ?? {};
  const e = open();
  const p = data.sample;
  indexDocs ??= e.files().reduce((sum, f) => sum + f.docs, 0);
  if (exact === true || p === undefined || indexDocs <= p.above) return { e, args: [text, rest] };
  return { e: (sampled ??= openPreviewEngine(data.root, { docs: p.docs, seed: 0 })), args: [text, rest] };
}

function wire(e: unknown): WireError {
  if (e instanceof HostError) return { kind: 'host', code: e.code, message: e.message, ...(e.field !== undefined && { field: e.field }) };
  if (isAssayError(e)) {
    const column = (e as { issues?: { column?: number }[] }).issues?.[0]?.column;
    return {
      kind: 'assay', code: e.code, message: e.message,
      ...(e.file !== undefined && { file: e.file }), ...(e.line !== undefined && { line: e.line }), ...(e.field !== undefined && { field: e.field }), ...(column !== undefined && { column }),
    };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { kind: 'other', code: 'INTERNAL', message: err.message, ...(err.stack !== undefined && { stack: err.stack }) };
}

function run(m: CallMessage): unknown {
  if (data.delayMs) {
    // Test hook: busy the way a runaway regex is, deaf to cooperative cancellation.
    const until = performance.now() + data.delayMs;
    while (performance.now() < until) {
      /* spin */
    }
  }
  if (m.method === 'summary') return summarize(open(), data.root);
  if (m.method === 'reload') {
    if (engine) {
      forgetComparisons(engine);
      engine.reload();
    } else open();
    // The sample is drawn again from the new index when a preview next asks for it.
    sampled?.close();
    sampled = null;
    indexDocs = null;
    return null;
  }
  if (m.method === 'preview') {
    const c = previewCall(m.args);
    return callEngine(c.e, m.method, c.args);
  }
  const e = open();
  const fn = (e as unknown as Record<string, unknown>)[m.method];
  if (!isComposed(m.method) && (m.method === 'close' || m.method === 'constructor' || m.method.startsWith('_') || typeof fn !== 'function')) {
    throw new HostError('INTERNAL', `the preview engine has no method '${m.method}'`);
  }
  return callEngine(e, m.method, m.args);
}

parentPort?.on('message', (m: CallMessage) => {
  if (m.env !== undefined) replaceEnv(m.env);
  running = m.gen;
  let reply: ReplyMessage;
  try {
    reply = { type: 'reply', id: m.id, ok: true, value: run(m) };
  } catch (e) {
    reply = { type: 'reply', id: m.id, ok: false, error: wire(e) };
  }
  try {
    parentPort?.postMessage(reply);
  } catch (e) {
    // A result structured clone cannot carry is this call's error, not the worker's end.
    parentPort?.postMessage({ type: 'reply', id: m.id, ok: false, error: wire(new Error(`the result could not be sent: ${(e as Error).message}`)) } satisfies ReplyMessage);
  }
});
