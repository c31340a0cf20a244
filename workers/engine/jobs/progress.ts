// Progress reports for long jobs: throttled, with rate and ETA, transport-agnostic.

export interface ProgressReport {
  stage: string;
  /** Work done / total in `unit` (bytes of input for file jobs). */
  done: number;
  total: number;
  unit: 'bytes' | 'docs' | 'files';
  filesDone: number;
  filesTotal: number;
  docs: number;
  /** Uncompressed bytes processed. */
  bytes: number;
  /** Uncompressed bytes per second and seconds left, estimated from `done`/`total`. */
  bytesPerSec: number;
  etaSec: number | null;
  elapsedSec: number;
}

export type ProgressSink = (p: ProgressReport) => void;

/** Accumulates deltas and calls the sink at most every `intervalMs` (and once at the end). */
export class ProgressTracker {
  readonly #start = performance.now();
  #last = 0;
  readonly state: Omit<ProgressReport, 'bytesPerSec' | 'etaSec' | 'elapsedSec'>;

  constructor(
    stage: string,
    total: number,
    filesTotal: number,
    private readonly sink: ProgressSink | undefined,
    private readonly intervalMs = 200,
  ) {
    this.state = { stage, done: 0, total, unit: 'bytes', filesDone: 0, filesTotal, docs: 0, bytes: 0 };
  }

  add(delta: { compressedBytes?: number; bytes?: number; docs?: number; files?: number }): void {
    this.state.done += delta.compressedBytes ?? 0;
    this.state.bytes += delta.bytes ?? 0;
    this.state.docs += delta.docs ?? 0;
    this.state.filesDone += delta.files ?? 0;
    const now = performance.now();
    if (now - this.#last >= this.intervalMs) {
      this.#last = now;
      this.emit();
    }
  }

  report(): ProgressReport {
    const elapsedSec = (performance.now() - this.#start) / 1000;
    const frac = this.state.total > 0 ? Math.min(1, this.state.done / this.state.total) : 0;
    const etaSec = frac > 0.001 ? (elapsedSec * (1 - frac)) / frac : null;
    return { ...this.state, bytesPerSec: elapsedSec > 0 ? this.state.bytes / elapsedSec : 0, etaSec, elapsedSec };
  }

  emit(): void {
    this.sink?.(this.report());
  }
}
