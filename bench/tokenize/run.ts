// bench/tokenize: `assay tokens` MB/s and tokens/s on one core vs the bare tokenizer on the same texts, per tokenizer and corpus.
import { DATA_DIR, runMeasured, scaled, stringArg } from '../args.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readJsonRecords } from '../../workers/engine/io/index.js';
import { encodeText } from '../../workers/engine/tokenize/documents.js';
import { runTokens } from '../../workers/engine/tokenize/runtime.js';
import { loadTokenizer } from '../../workers/engine/tokenize/tokenizer/load.js';
import { ensureCorpus } from '../mix/corpus.js';

const HERE = fileURLToPath(import.meta.url);
const DATA = DATA_DIR;
const NEOX = resolve(HERE, '../../../../shared/conformance/dolma/tokenizer/gpt-neo-test-tokenizer.json');
const arg = stringArg;
const FILES_USED = Number(arg('files-used', '2'));
const TOKENIZERS: Record<string, { path: string; eos: number; label: string }> = {
  neox: { path: NEOX, eos: 50279, label: 'GPT-NeoX (Dolma test tokenizer.json)' },
  gpt2: { path: 'gpt2', eos: 50256, label: 'gpt2 (built-in r50k_base)' },
};

/**
 * Text with a realistic vocabulary: the bench/mix corpus draws from ~150 words, so every
 * pre-token is a cache hit. This one cuts the README/copyright/*.md/*.txt files under
 * /usr/share/doc (sorted) into ~3 KB documents, up to 20 MB.
 */
function ensureDocsCorpus(): string[] {
  const dir = join(DATA, 'tokenize/docs');
  const marker = join(dir, 'done.json');
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as string[];
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /^(README.*|copyright|.*\.md|.*\.txt)$/.test(e.name) && !e.name.endsWith('.gz')) files.push(p);
    }
  };
  if (existsSync('/usr/share/doc')) walk('/usr/share/doc');
  const docs: string[] = [];
  let size = 0;
  let buf = '';
  for (const f of files) {
    if (size > scaled(20e6, 2e5)) break;
    if (statSync(f).size > 2e6) continue;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      buf += line + '\n';
      if (buf.length >= 3000) {
        docs.push(JSON.stringify({ id: `doc-${docs.length}`, text: buf, source: 'usr-share-doc' }));
        size += buf.length;
        buf = '';
      }
    }
  }
  const out: string[] = [];
  for (let k = 0; k < 2; k++) {
    const p = join(dir, `docs-${k}.jsonl.gz`);
    writeFileSync(p, gzipSync(docs.filter((_, i) => i % 2 === k).join('\n') + '\n', { level: 1 }));
    out.push(p);
  }
  writeFileSync(marker, JSON.stringify(out));
  return out;
}

const corpusFiles = (corpus: string): string[] => (corpus === 'docs' ? ensureDocsCorpus() : ensureCorpus(join(DATA, 'mix'), scaled(200, 4), 8).files.slice(0, FILES_USED));

interface Measure {
  sec: number;
  bytes: number;
  tokens: number;
  docs: number;
}

async function measure(kind: string, tk: string, corpus: string): Promise<Measure> {
  const files = corpusFiles(corpus);
  const t = TOKENIZERS[tk] as (typeof TOKENIZERS)[string];
  if (kind === 'bare') {
    // Same documents and the same strip + BOS/EOS rule as the stage; only the encode loop is timed.
    const texts: string[] = [];
    let bytes = 0;
    for (const f of files) {
      for await (const batch of readJsonRecords(f)) {
        for (const r of batch) {
          texts.push(r.value.text as string);
          bytes += r.bytes + 1;
        }
      }
    }
    const tokenizer = await loadTokenizer({ nameOrPath: t.path });
    const start = performance.now();
    let tokens = 0;
    for (const text of texts) tokens += encodeText(tokenizer, text, { bos: null, eos: t.eos, segmentBeforeTokenization: false })?.ids.length ?? 0;
    return { sec: (performance.now() - start) / 1000, bytes, tokens, docs: texts.length };
  }
  if (kind === 'hf') {
    // @huggingface/tokenizers end to end on the first ~3 MB of the same texts (it is ~20× slower).
    const { Tokenizer } = await import('@huggingface/tokenizers');
    const hf = new Tokenizer(JSON.parse(readFileSync(t.path, 'utf8')) as object, {});
    const texts: string[] = [];
    let bytes = 0;
    for await (const batch of readJsonRecords(files[0] as string)) {
      for (const r of batch) {
        if (bytes >= 3e6) break;
        texts.push(r.value.text as string);
        bytes += r.bytes + 1;
      }
    }
    const start = performance.now();
    let tokens = 0;
    for (const text of texts) tokens += hf.encode(text.trim(), { add_special_tokens: false }).ids.length + 1;
    return { sec: (performance.now() - start) / 1000, bytes, tokens, docs: texts.length };
  }
  const out = join(DATA, 'tokenize/out');
  rmSync(out, { recursive: true, force: true });
  const start = performance.now();
  const s = await runTokens({ documents: files, destination: out, tokenizer: { nameOrPath: t.path, eosTokenId: t.eos } });
  return { sec: (performance.now() - start) / 1000, bytes: s.bytes, tokens: s.tokens, docs: s.docs };
}

function inFreshProcess(kind: string, tk: string, corpus: string): Measure {
  const node = [process.execPath, '--import', 'tsx', HERE, '--measure', kind, tk, corpus, '--files-used', String(FILES_USED)];
  return runMeasured<Measure>(node, `${kind} ${tk} ${corpus}`);
}

const m = process.argv.indexOf('--measure');
if (m >= 0) {
  const [kind, tk, corpus] = process.argv.slice(m + 1, m + 4) as [string, string, string];
  process.stdout.write(JSON.stringify(await measure(kind, tk, corpus)) + '\n');
} else {
  const corpora = arg('corpus', 'mix,docs').split(',');
  const tks = arg('tokenizers', 'neox,gpt2').split(',');
  const mb = (x: Measure): string => `${(x.bytes / 1e6 / x.sec).toFixed(1).padStart(5)} MB/s ${(x.tokens / 1e6 / x.sec).toFixed(2).padStart(5)} M tok/s`;
  const lines: string[] = [];
  for (const corpus of corpora) {
    corpusFiles(corpus);
    lines.push(corpus === 'docs' ? 'corpus: /usr/share/doc text in ~3 KB documents (realistic vocabulary)' : `corpus: bench/mix, first ${FILES_USED} of 8 files (~150-word vocabulary: BPE cache always hits)`);
    for (const tk of tks) {
      const bare = inFreshProcess('bare', tk, corpus);
      const stage = inFreshProcess('stage', tk, corpus);
      lines.push(`  ${(TOKENIZERS[tk] as { label: string }).label}: ${(stage.bytes / 1e6).toFixed(1)} MB JSONL, ${stage.docs.toLocaleString('en-US')} docs, ${stage.tokens.toLocaleString('en-US')} tokens`);
      lines.push(`    bare tokenizer (strip + encode + EOS, texts in memory), 1 core  ${mb(bare)}`);
      lines.push(`    assay tokens (read + parse + encode + shuffle + write), 1 core  ${mb(stage)}`);
      lines.push(`    assay tokens ÷ bare tokenizer (throughput, same documents)      ${(bare.sec / stage.sec).toFixed(2)}`);
      if (tk === 'neox' && process.argv.includes('--hf')) lines.push(`    @huggingface/tokenizers alone (first ~3 MB), 1 core            ${mb(inFreshProcess('hf', tk, corpus))}`);
    }
  }
  process.stdout.write(`bench/tokenize — each measurement in a fresh process, one pinned core\n${lines.join('\n')}\n`);
}
