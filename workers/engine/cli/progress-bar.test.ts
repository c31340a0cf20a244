// Progress lines: sizes and rates read as numbers a person can take in, and tests can tell them from other stderr.
import { describe, expect, it } from 'vitest';
import type { ProgressReport } from '../jobs/progress.js';
import { formatBytes, progressLine } from './progress-bar.js';
import { withoutProgress } from './run-cli.js';

const report: ProgressReport = { stage: 'tokens', done: 0, total: 2, unit: 'bytes', filesDone: 0, filesTotal: 2, docs: 20, bytes: 1234, bytesPerSec: 348.702382655313, etaSec: null, elapsedSec: 3.5 };

describe('progress lines', () => {
  it('round bytes and rates below a kilobyte to whole bytes', () => {
    expect(formatBytes(348.702382655313)).toBe('349 B');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1234)).toBe('1.2 kB');
    expect(progressLine(report)).toBe('tokens ░░░░░░░░░░░░░░░░░░░░░░░░   0% · files 0/2 · 20 docs · 1.2 kB · 349 B/s · ETA --:--');
  });

  it('withoutProgress drops progress lines and keeps everything else a run said', () => {
    const warning = 'warning: a.jsonl.gz: no attribute file';
    expect(withoutProgress(`${progressLine(report)}\n${warning}\n${progressLine({ ...report, done: 1 })}\n`)).toBe(`${warning}\n`);
    expect(withoutProgress(`${progressLine(report)}\n`)).toBe('');
  });
});
