// bench/tag --native: tag passes with the C addon against the same passes in JavaScript, in alternated fresh processes.
import { addonStatus } from '../../workers/engine/native-addon.js';
import type { Measured } from './run.js';

type Run = (kind: string, native: boolean) => Measured;

/**
 * For each measurement: `runs` pairs, JavaScript then C, alternated so that a change in the machine's load falls
 * on both; the best (least CPU) of each and their ratio. `preset`: the FineWeb preset's tagger names, in order.
 */
export function nativeLines(run: Run, runs: number, preset: readonly string[]): string[] {
  const status = addonStatus();
  if (status.addon === null) throw new Error(`bench/tag --native: the C addon is not loaded (${status.reason ?? ''}); run npm run build:native`);
  const at = (name: string): number => preset.indexOf(name);
  // What runs the addon's code: fastText (language_filter, lid176), the spaCy tokenizer's scan and word ids
  // (gopher_repetition, gopher_quality, c4_quality, fineweb_quality), gopher_repetition's n-grams, gopher_v1's counts.
  const kinds: [string, string][] = [
    ['FineWeb preset, one pass, fresh process', 'prose-fineweb'],
    ['FineWeb preset, one pass, sustained', 'sustained:prose-fineweb'],
    ['language_filter alone, fresh process', `prose-fineweb:${at('language_filter')}`],
    ['language_filter alone, sustained', `sustained:prose-fineweb:${at('language_filter')}`],
    ['gopher_repetition alone, fresh process', `prose-fineweb:${at('gopher_repetition')}`],
    ['gopher_repetition alone, sustained', `sustained:prose-fineweb:${at('gopher_repetition')}`],
    ['gopher_quality alone, fresh process', `prose-fineweb:${at('gopher_quality')}`],
    ['c4_quality alone, fresh process', `prose-fineweb:${at('c4_quality')}`],
    ['lid176 alone, sustained', 'sustained:lid176'],
    ['Dolma pass (gopher_v1 + c4_v2 + pii), fresh', 'prose-dolma'],
    ['Dolma pass, sustained', 'sustained:prose-dolma'],
  ];
  const lines = [`bench/tag --native — real prose, one pinned core, best of ${runs} alternated pairs; MB per CPU second`, `  ${''.padEnd(44)}  JavaScript        C addon   C ÷ JS`];
  for (const [label, kind] of kinds) {
    let js: Measured | null = null;
    let c: Measured | null = null;
    for (let i = 0; i < runs; i++) {
      const a = run(kind, false);
      const b = run(kind, true);
      if (js === null || a.sec < js.sec) js = a;
      if (c === null || b.sec < c.sec) c = b;
    }
    const mb = (r: Measured): number => r.bytes / 1e6 / r.sec;
    const [x, y] = [mb(js as Measured), mb(c as Measured)];
    lines.push(`  ${label.padEnd(44)} ${x.toFixed(2).padStart(7)} MB/s ${y.toFixed(2).padStart(9)} MB/s ${(y / x).toFixed(2).padStart(7)}`);
  }
  return lines;
}
