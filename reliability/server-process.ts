// Test helpers for the hostile-client suite: the real `assay serve` as a process, its process tree, and a contract client over WebSocket.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { HostMessage } from '../shared/contract/index.js';
import { REPO_ROOT } from '../workers/engine/testing.js';

export interface ServeProcess {
  proc: ChildProcess;
  port: number;
  token: string;
  /** Everything the server printed on stderr (its log, the host's). */
  stderr: () => string;
}

/** Starts the built CLI's `assay serve` on a free port and resolves once it printed its URL. */
export function startServe(workspace: string): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [join(REPO_ROOT, 'bin/assay.js'), 'serve', '--workspace', workspace, '--port', '0', '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`assay serve printed no URL in 30 s; stderr: ${err}`)), 30_000);
    proc.once('exit', (code, signal) => reject(new Error(`assay serve exited (${code ?? signal}) before serving; stderr: ${err}`)));
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({ proc, port: Number(m[1]), token: m[2] as string, stderr: () => err });
    });
  });
}

/** Every live process below `pid` (children, grandchildren…), from one `ps` snapshot. */
export function descendants(pid: number): number[] {
  const ps = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of ps.stdout.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(pp, [...(children.get(pp) ?? []), p]);
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (exited, not yet reaped by its parent) is not running.
  const st = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return st !== '' && !st.startsWith('Z');
}

/** Waits until none of `pids` runs; returns those still running after `timeoutMs`. */
export async function waitGone(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A contract client on one WebSocket: numbered requests, answers matched by id, events collected. */
export class WsClient {
  #next = 1;
  readonly #pending = new Map<number, (m: HostMessage) => void>();
  readonly events: HostMessage[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as HostMessage;
      if (m.type === 'event') return void this.events.push(m);
      this.#pending.get(m.id)?.(m);
      this.#pending.delete(m.id);
    });
  }

  static open(s: { port: number; token: string }): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`);
      ws.once('open', () => resolve(new WsClient(ws)));
      ws.once('error', reject);
    });
  }

  call(method: string, params: unknown): Promise<HostMessage & { type: 'response' }> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve as (m: HostMessage) => void);
      this.ws.send(JSON.stringify({ type: 'request', id, method, params }));
    });
  }

  /** Sends a frame as it is (may be malformed on purpose); the answer, if any, comes by `id`. */
  raw(text: string, id?: number): Promise<HostMessage & { type: 'response' }> | undefined {
    this.ws.send(text);
    if (id === undefined) return undefined;
    return new Promise((resolve) => this.#pending.set(id, resolve as (m: HostMessage) => void));
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Polls workspace.info on `client` until `done` settles; returns every latency seen (ms). */
export async function infoLatencies(client: WsClient, done: Promise<unknown>, everyMs = 40): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const times: number[] = [];
  while (!finished) {
    const t = performance.now();
    const r = await client.call('workspace.info', {});
    if (!r.ok) throw new Error(`workspace.info failed: ${r.error.message}`);
    times.push(performance.now() - t);
    await new Promise((res) => setTimeout(res, everyMs));
  }
  return times;
}

/**
 * The < 200 ms promise for workspace.info while the engine is busy, as a test can hold a shared, overloaded
 * machine to it: many answers, at most 2 % of them (a descheduled process) past 200 ms, none past 1 s. A host
 * blocked by the preview fails all three: one answer, after the whole preview.
 */
export function answeredPromptly(latencies: readonly number[]): { ok: boolean; summary: string } {
  const slow = latencies.filter((ms) => ms >= 200).length;
  const max = Math.max(0, ...latencies);
  const ok = latencies.length >= 10 && slow <= Math.floor(latencies.length * 0.02) && max < 1000;
  return { ok, summary: `${latencies.length} answers, ${slow} at or past 200 ms, slowest ${max.toFixed(0)} ms` };
}
