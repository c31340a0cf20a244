// Runs an async job for the latest state: at once after a quiet spell, then at most once per gap, one at a time.

export interface LatestRunner {
  /** The state changed: make sure a run starts after this moment. */
  request(): void;
  /** Forget a requested run that has not started. */
  cancel(): void;
}

/**
 * A throttle with a leading edge rather than a plain debounce: a single edit (or the end of a threshold
 * drag) previews immediately, a burst of keystrokes coalesces to one run per `gapMs`, and the final
 * state always runs. Runs never overlap, so a slow host sees at most one request at a time.
 */
export function latestRunner(run: () => Promise<void>, gapMs: number, now: () => number = Date.now): LatestRunner {
  let pending = false;
  let inFlight = false;
  let lastStart = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const pump = (): void => {
    if (!pending || inFlight || timer !== null) return;
    const wait = lastStart + gapMs - now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = null;
        pump();
      }, wait);
      return;
    }
    pending = false;
    inFlight = true;
    lastStart = now();
    run()
      .catch(() => undefined) // the job reports its own errors; the runner only sequences
      .finally(() => {
        inFlight = false;
        pump();
      });
  };

  return {
    request() {
      pending = true;
      pump();
    },
    cancel() {
      pending = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
