// bench/kernel: one hot tagging loop (fastText's subword n-grams of each new token) in JavaScript, WebAssembly and C.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { readJsModel, type JsModel } from '../../workers/engine/tag/taggers/fasttext/js-model.js';
import { subwordRows } from '../../workers/engine/tag/taggers/fasttext/js-predict.js';
import { DEFAULT_LID_MODEL } from '../../workers/engine/tag/taggers/fasttext/model.js';
import { DATA_DIR, numberArg, runMeasured, scaled } from '../args.js';
import { ensureProseCorpus } from '../tag/prose.js';

const OUT = join(DATA_DIR, 'kernel');
const ROUNDS = numberArg('rounds', scaled(7, 2));
const HERE = fileURLToPath(new URL('.', import.meta.url));

/** What this bench uses of WebAssembly's API (the engine's TypeScript lib declares none of it). */
const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object, imports: object) => { exports: unknown } } }).WebAssembly;

/** A measured leg: the fastest round's milliseconds, and the rows found and their ids' sum (equal in every leg). */
interface Leg {
  ms: number;
  rows: number;
  sum: number;
  /** The JavaScript leg's input: distinct tokens and their UTF-8 bytes. */
  tokens?: number;
  bytes?: number;
}

/** The prose corpus's distinct tokens as fastText splits them (on its seven whitespace bytes): what the predictor hashes once each. */
function tokens(): { text: Uint8Array; ends: Uint32Array } {
  const lines = gunzipSync(readFileSync(ensureProseCorpus(join(DATA_DIR, 'tag-prose')).file)).toString('utf8').split('\n');
  const seen = new Set<string>();
  for (const l of lines) if (l !== '') for (const t of (JSON.parse(l) as { text: string }).text.split(/[ \n\r\t\v\f\0]+/)) if (t !== '') seen.add(t);
  const parts = [...seen].map((t) => Buffer.from(t, 'utf8'));
  const ends = new Uint32Array(parts.length);
  let at = 0;
  parts.forEach((p, k) => (ends[k] = at += p.length));
  return { text: Buffer.concat(parts), ends };
}

function model(): JsModel & { prune: NonNullable<JsModel['prune']> } {
  const m = readJsModel(readFileSync(DEFAULT_LID_MODEL));
  if (m === null || m.prune === null) throw new Error(`${DEFAULT_LID_MODEL}: not a pruned model`);
  return m as JsModel & { prune: NonNullable<JsModel['prune']> };
}

/** Best of ROUNDS passes of `pass` (which returns the rows and their sum). */
function best(pass: () => { rows: number; sum: number }): Leg {
  let leg: Leg = { ms: Infinity, rows: 0, sum: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    const got = pass();
    const ms = performance.now() - t;
    if (ms < leg.ms) leg = { ms, ...got };
  }
  return leg;
}

function jsLeg(): Leg {
  const m = model();
  const { text, ends } = tokens();
  const w = new Uint8Array(text.length + 2);
  const found = new Int32Array((text.length + 2) * (m.maxn + 1));
  const leg = best(() => {
    let rows = 0;
    let sum = 0;
    let start = 0;
    for (const end of ends) {
      const len = end - start + 2;
      w[0] = 0x3c;
      // Byte by byte, as the predictor copies a token (a subarray per token would cost more than its n-grams).
      for (let i = start; i < end; i++) w[i - start + 1] = text[i] as number;
      w[len - 1] = 0x3e;
      const n = subwordRows(w, len, m, found, 0);
      for (let k = 0; k < n; k++) sum += found[k] as number;
      rows += n;
      start = end;
    }
    return { rows, sum };
  });
  return { ...leg, tokens: ends.length, bytes: text.length };
}

function wasmLeg(): Leg {
  const m = model();
  const { text, ends } = tokens();
  mkdirSync(OUT, { recursive: true });
  const wasmFile = join(OUT, 'subwords.wasm');
  // The compiler in plain Node: loaded through tsx's hooks, its 10 MB of JavaScript took 19 s instead of 3.
  const asc = createRequire(import.meta.url).resolve('assemblyscript/bin/asc.js');
  const built = spawnSync(process.execPath, [asc, join(HERE, 'subwords.as.ts'), '-O3', '--noAssert', '--runtime', 'stub', '-o', wasmFile], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`asc failed: ${built.stderr}`);
  const instance = new Wasm.Instance(new Wasm.Module(readFileSync(wasmFile)), { env: { abort: () => { throw new Error('abort in subwords.as.ts'); } } });
  const ex = instance.exports as { memory: { buffer: ArrayBuffer; grow(pages: number): number }; setModel: (...a: number[]) => void; allTokens: (...a: number[]) => number };
  const { slots, mask, bits } = m.prune.layout;
  if (bits === null) throw new Error('the prune table has no bit set (above 2^28 buckets)');
  // Linear memory from 64 KiB on (below it: the module's own data): slots, bits, ends, text, scratch, found, sum.
  const sizes = [slots.byteLength, bits.byteLength, ends.byteLength, text.length, text.length + 8, (text.length + 2) * (m.maxn + 1) * 4, 8];
  const at: number[] = [];
  let end = 65536;
  for (const s of sizes) {
    at.push(end);
    end += Math.ceil(s / 8) * 8;
  }
  ex.memory.grow(Math.max(0, Math.ceil(end / 65536) - ex.memory.buffer.byteLength / 65536));
  const mem = ex.memory.buffer;
  new Int32Array(mem, at[0], slots.length).set(slots);
  new Int32Array(mem, at[1], bits.length).set(bits);
  new Uint32Array(mem, at[2], ends.length).set(ends);
  new Uint8Array(mem, at[3], text.length).set(text);
  ex.setModel(at[0]!, mask, at[1]!, m.nwords, m.bucket, m.minn, m.maxn);
  return best(() => {
    const rows = ex.allTokens(at[3]!, at[2]!, ends.length, at[4]!, at[5]!, at[6]!);
    return { rows, sum: new Float64Array(ex.memory.buffer, at[6], 1)[0] as number };
  });
}

/** null when there is no C compiler (`cc`). */
function cLeg(): Leg | null {
  if (spawnSync('cc', ['--version']).status !== 0) return null;
  const m = model();
  const { text, ends } = tokens();
  const { slots, mask, bits } = m.prune.layout;
  if (bits === null) throw new Error('the prune table has no bit set (above 2^28 buckets)');
  mkdirSync(OUT, { recursive: true });
  const exe = join(OUT, 'subwords');
  const cc = spawnSync('cc', ['-O2', '-o', exe, join(HERE, 'subwords.c')], { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`cc failed: ${cc.stderr}`);
  const head = Uint32Array.of(mask, m.bucket, m.minn, m.maxn, m.nwords, slots.length, bits.length, ends.length, text.length);
  const data = join(OUT, 'subwords.data');
  writeFileSync(data, Buffer.concat([head, slots, bits, ends].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)).concat([Buffer.from(text)])));
  const r = spawnSync(exe, [data, String(ROUNDS)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${exe} exited with ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Leg;
}

async function main(): Promise<void> {
  const leg = process.argv[process.argv.indexOf('--leg') + 1];
  if (process.argv.includes('--leg')) {
    const r = leg === 'js' ? jsLeg() : leg === 'wasm' ? wasmLeg() : cLeg();
    process.stdout.write(JSON.stringify(r) + '\n');
    return;
  }
  const self = fileURLToPath(import.meta.url);
  const run = (name: string): Leg | null => runMeasured<Leg | null>([process.execPath, '--import', 'tsx', self, '--leg', name, '--rounds', String(ROUNDS)], `kernel --leg ${name}`);
  const js = run('js') as Leg;
  const [count, bytes] = [js.tokens ?? 0, js.bytes ?? 0];
  const wasm = run('wasm') as Leg;
  const c = run('c');
  for (const [name, r] of [['WebAssembly', wasm], ['C', c]] as const) {
    if (r !== null && (r.rows !== js.rows || r.sum !== js.sum)) throw new Error(`${name} found ${r.rows} rows (sum ${r.sum}), JavaScript ${js.rows} (sum ${js.sum})`);
  }
  const line = (name: string, r: Leg | null): string =>
    r === null ? `  ${name.padEnd(34)} skipped: no C compiler (cc)` : `  ${name.padEnd(34)} ${r.ms.toFixed(1).padStart(7)} ms  ${((1e6 * r.ms) / count).toFixed(0).padStart(5)} ns per token  ${(js.ms / r.ms).toFixed(2)}× JavaScript`;
  process.stdout.write(
    [
      `bench/kernel — fastText subword rows of each distinct token of the prose corpus (${count.toLocaleString('en-US')} tokens, ${(bytes / 1e6).toFixed(2)} MB; lid.176's pruned table), best of ${ROUNDS}, one pinned core; ${js.rows.toLocaleString('en-US')} rows in every leg`,
      line('JavaScript (the tagger\'s own code)', js),
      line('WebAssembly (AssemblyScript -O3)', wasm),
      line('C (cc -O2)', c),
    ].join('\n') + '\n',
  );
}

await main();
