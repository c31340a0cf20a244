// bench/preview/tokens.ts: the token-count phase of `assay index --tokenizer gpt2` over the preview bench's 10^6 documents, in documents/s per core.
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { DATA_DIR, numberArg, scaled, stringArg } from '../args.js';
import { buildIndex, countTokens, indexPath } from '../../workers/engine/index/index.js';
import { hasTokenCounts, openDatabase } from '../../workers/engine/index/store/db.js';
import { countFile, type CountTask } from '../../workers/engine/index/tokens/count.js';
import { openCountingTokenizer } from '../../workers/engine/index/tokens/tokenizer.js';
import { ensureDataset } from './corpus.js';

const DOCS = numberArg('docs', scaled(1_000_000, 5_000));
const FILES = numberArg('files', scaled(20, 2));
const TOKENIZER = stringArg('tokenizer', 'gpt2');
const PROCESSES = numberArg('processes', Math.min(cpus().length, FILES));
// run.ts passes its own dataset; run alone, this bench keeps one of its own, so it never races run.ts's rebuilds.
const ROOT = stringArg('root', join(DATA_DIR, `tokens-${DOCS}`));
const n = (x: number): string => Math.round(x).toLocaleString('en-US');

ensureDataset(ROOT, DOCS, FILES);
if (!existsSync(indexPath(ROOT))) await buildIndex(ROOT, { search: false });
// Counts left by an earlier run would be kept (the phase is incremental): time a count from none.
const db = openDatabase(indexPath(ROOT));
const first = db.prepare('SELECT id, path, hash, docs FROM files ORDER BY path LIMIT 1').get() as { id: number; path: string; hash: string; docs: number };
if (hasTokenCounts(db)) db.exec('DELETE FROM token_counts');
db.close();
const counter = await openCountingTokenizer(TOKENIZER, undefined, process.cwd());
const what = `${TOKENIZER}, EOS ${counter.info.eos}`;

// One documents file in this process: one core's rate, without the pool.
const task: CountTask = { root: ROOT, file: first.id, path: first.path, hash: first.hash, docs: first.docs };
let bytes = 0;
let t = performance.now();
const one = await countFile(task, counter.tokenizer, counter.info.eos, { onProgress: (p) => (bytes += p.bytes) });
let sec = (performance.now() - t) / 1000;
if (one.counts === null) throw new Error(`${first.path}: ${one.why ?? 'not counted'}`);
console.log(
  `token counts (${what}), one core in this process: ${n(one.counts.length)} documents of ${first.path} in ${sec.toFixed(2)} s = ` +
    `${n(one.counts.length / sec)} docs/s (${(one.tokens / sec / 1e6).toFixed(2)} M tokens/s, ${(bytes / sec / 1e6).toFixed(1)} MB/s of JSON lines)`,
);

// The whole phase as `assay index --tokenizer` runs it: every file on the pool, committed file by file.
bytes = 0;
t = performance.now();
const r = await countTokens(ROOT, { counter, processes: PROCESSES, onProgress: (p) => (bytes = p.bytes) });
sec = (performance.now() - t) / 1000;
if (r === null || r.docs !== DOCS) throw new Error(`expected ${DOCS} documents counted, got ${r?.docs ?? 'none'}`);
console.log(
  `token-count phase (${what}), ${PROCESSES} processes: ${n(r.docs)} documents, ${n(r.tokens)} tokens in ${sec.toFixed(1)} s = ${n(r.docs / sec)} docs/s ` +
    `= ${n(r.docs / sec / PROCESSES)} docs/s per core (${(bytes / sec / 1e6).toFixed(1)} MB/s of JSON lines)`,
);
