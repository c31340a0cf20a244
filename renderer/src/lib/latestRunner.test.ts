import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { latestRunner } from './latestRunner.js';

describe('latestRunner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A job that takes `ms` of fake time and records when it started. */
  function job(ms: number) {
    const starts: number[] = [];
    const run = () => {
      starts.push(Date.now());
      return new Promise<void>((r) => setTimeout(r, ms));
    };
    return { starts, run };
  }

  it('runs at once after a quiet spell', () => {
    const j = job(10);
    const t0 = Date.now();
    latestRunner(j.run, 250).request();
    expect(j.starts).toEqual([t0]);
  });

  it('coalesces a burst to one run per gap and always runs the final state', async () => {
    const j = job(10);
    const r = latestRunner(j.run, 250);
    const t0 = Date.now();
    for (let i = 0; i < 20; i++) {
      r.request();
      await vi.advanceTimersByTimeAsync(30); // keystrokes 30 ms apart for 600 ms
    }
    await vi.advanceTimersByTimeAsync(1000);
    expect(j.starts.map((t) => t - t0)).toEqual([0, 250, 500, 750]);
  });

  it('never overlaps runs: a slow run delays the next until it ends', async () => {
    const j = job(400);
    const r = latestRunner(j.run, 100);
    const t0 = Date.now();
    r.request();
    await vi.advanceTimersByTimeAsync(50);
    r.request();
    await vi.advanceTimersByTimeAsync(1000);
    expect(j.starts.map((t) => t - t0)).toEqual([0, 400]);
  });

  it('cancel forgets a requested run that has not started', async () => {
    const j = job(10);
    const r = latestRunner(j.run, 250);
    r.request();
    r.request();
    r.cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(j.starts).toHaveLength(1);
  });
});
