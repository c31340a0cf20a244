// Turns the engine's progress reports into the contract's JobProgress: a rate over a recent window, an ETA, and at most one event per interval.
import type { JobProgress } from '../../../shared/contract/index.js';

const WINDOW_MS = 3000;

/** What every engine stage reports (the engine's ProgressReport and the index build's progress both fit). */
export interface StageProgress {
  done: number;
  total: number;
  unit: string;
  etaSec?: number | null;
}

export class ProgressMeter {
  readonly #samples: { t: number; done: number }[] = [];
  #lastEmit = -Infinity;
  #latest: JobProgress | undefined;
  #unsent = false;

  constructor(
    private readonly jobId: string,
    private readonly intervalMs = 250,
  ) {}

  get latest(): JobProgress | undefined {
    return this.#latest;
  }

  /** Records a report; returns the progress to publish when the interval has passed, else undefined. */
  update(r: StageProgress, now = performance.now()): JobProgress | undefined {
    // A new stage (e.g. re-indexing after tagging) restarts the count, so the window restarts too.
    const last = this.#samples[this.#samples.length - 1];
    if (last && r.done < last.done) this.#samples.length = 0;
    this.#samples.push({ t: now, done: r.done });
    while (this.#samples.length > 2 && (this.#samples[0]?.t ?? now) < now - WINDOW_MS) this.#samples.shift();
    const first = this.#samples[0] ?? { t: now, done: r.done };
    const dt = (now - first.t) / 1000;
    const rate = dt > 0.05 ? (r.done - first.done) / dt : 0;
    const left = Math.max(0, r.total - r.done);
    const eta = rate > 0 ? left / rate : (r.etaSec ?? undefined);
    this.#latest = { jobId: this.jobId, done: r.done, total: r.total, unit: r.unit, rate, ...(eta !== undefined && Number.isFinite(eta) && { eta }) };
    this.#unsent = true;
    if (now - this.#lastEmit < this.intervalMs) return undefined;
    this.#lastEmit = now;
    this.#unsent = false;
    return this.#latest;
  }

  /** The last report when it was held back by the interval (sent once a job ends, so the bar shows where it stopped). */
  flush(): JobProgress | undefined {
    if (!this.#unsent) return undefined;
    this.#unsent = false;
    return this.#latest;
  }
}
