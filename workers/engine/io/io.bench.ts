// Throughput of the io layer: readLineBatches on gzip / zstd / plain, AtomicWriter gzip-6 / zstd-3.
// Run: node --import tsx workers/engine/io/io.bench.ts [MB]   (not part of the test suite)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { readJsonRecords } from './json.js';
import { readLineBatches } from './read.js';
import { AtomicWriter } from './write.js';

// ASSAY_BENCH_SMOKE=1 (the README-commands test) shrinks the default size; the numbers then mean nothing.
const TARGET_MB = Number(process.argv[2] ?? (process.env.ASSAY_BENCH_SMOKE === '1' ? 2 : 50));
const RUNS = 3;
const dir = mkdtempSync(join(tmpdir(), 'assay-io-bench-'));

/** Deterministic pseudo-English documents of ~3.5 KB, shaped like toolchain.md's B.6 corpus. */
function makeLines(targetBytes: number): string[] {
  let seed = 42;
  const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const letters = 'etaoinshrdlcumwfgypbvkjxqz';
  const vocab = Array.from({ length: 4000 }, () => {
    let w = '';
    const len = 2 + Math.floor(rand() * 8);
    for (let i = 0; i < len; i++) w += letters[Math.floor(rand() ** 2 * letters.length)];
    return w;
  });
  const word = (): string => vocab[Math.floor(rand() ** 3 * vocab.length)] ?? 'x';
  const lines: string[] = [];
  let total = 0;
  for (let id = 0; total < targetBytes; id++) {
    let text = '';
    while (text.length < 3200) {
      let s = word();
      s = s[0]?.toUpperCase() + s.slice(1);
      const n = 6 + Math.floor(rand() * 14);
      for (let i = 0; i < n; i++) s += ' ' + word();
      text += s + (rand() < 0.15 ? '.\n\n' : '. ');
    }
    const doc = {
      id: `doc-${id}`,
      text,
      source: 'bench',
      added: '2024-01-01T00:00:00Z',
      created: '2023-06-01T00:00:00Z',
      metadata: { url: `https://example.com/${word()}/${id}`, lang: 'en', n_paragraphs: text.split('\n\n').length, length: text.length, quality: rand() },
    };
    const line = JSON.stringify(doc);
    lines.push(line);
    total += Buffer.byteLength(line) + 1;
  }
  return lines;
}

const mbps = (bytes: number, ms: number): string => (bytes / 1e6 / (ms / 1000)).toFixed(1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timeIt(label: string, bytes: number, fn: () => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  console.log(`${label.padEnd(44)} ${mbps(bytes, median(times)).padStart(7)} MB/s  (runs: ${times.map((t) => mbps(bytes, t)).join(' / ')})`);
}

async function write(path: string, lines: string[], level?: number): Promise<void> {
  const w = await AtomicWriter.open(path, level === undefined ? {} : { level });
  for (const l of lines) await w.write(l + '\n');
  await w.commit();
}

async function main(): Promise<void> {
  const lines = makeLines(TARGET_MB * 1e6);
  const bytes = lines.reduce((a, l) => a + Buffer.byteLength(l) + 1, 0);
  console.log(`${lines.length} lines, ${(bytes / 1e6).toFixed(1)} MB, ${(bytes / lines.length).toFixed(0)} B/line, node ${process.version}`);
  const gz = join(dir, 'bench.jsonl.gz');
  const zst = join(dir, 'bench.jsonl.zst');
  const plain = join(dir, 'bench.jsonl');

  console.log('-- AtomicWriter (one write() per line, awaited)');
  await timeIt('write gzip-6', bytes, () => write(gz, lines));
  await timeIt('write zstd-3', bytes, () => write(zst, lines));
  await timeIt('write plain', bytes, () => write(plain, lines));
  console.log(`sizes: gzip-6 ${(statSync(gz).size / 1e6).toFixed(1)} MB, zstd-3 ${(statSync(zst).size / 1e6).toFixed(1)} MB`);

  console.log('-- readers (MB/s of uncompressed bytes)');
  await timeIt('baseline: createGunzip stream alone', bytes, async () => {
    let n = 0;
    for await (const c of createReadStream(gz, { highWaterMark: 64 * 1024 }).pipe(createGunzip())) n += (c as Buffer).length;
    if (n !== bytes) throw new Error('gunzip size mismatch');
  });
  for (const [label, path] of [
    ['readLineBatches gzip', gz],
    ['readLineBatches zstd', zst],
    ['readLineBatches plain', plain],
  ] as const) {
    await timeIt(label, bytes, async () => {
      let n = 0;
      for await (const b of readLineBatches(path)) n += b.lines.length;
      if (n !== lines.length) throw new Error(`${label}: ${n} lines`);
    });
  }
  await timeIt('readJsonRecords gzip (+ JSON.parse)', bytes, async () => {
    let n = 0;
    for await (const b of readJsonRecords(gz)) n += b.length;
    if (n !== lines.length) throw new Error('record count');
  });

  console.log('-- combined: readJsonRecords(gzip) → touch a field → JSON.stringify → AtomicWriter (one write per batch)');
  for (const out of ['out.jsonl.gz', 'out.jsonl.zst']) {
    await timeIt(`gzip → ${out.endsWith('.gz') ? 'gzip-6' : 'zstd-3'}`, bytes, async () => {
      const w = await AtomicWriter.open(join(dir, out));
      for await (const batch of readJsonRecords(gz)) {
        let s = '';
        for (const r of batch) {
          r.value['seen'] = true;
          s += JSON.stringify(r.value) + '\n';
        }
        await w.write(s);
      }
      await w.commit();
    });
  }
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
