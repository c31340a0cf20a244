// `assay tag` with the C addon, in pool processes and in pool threads (the app's pools under Electron): the attributes ASSAY_NATIVE=0 writes.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonStatus } from '../native-addon.js';
import { LANGUAGE_SAMPLES } from '../tag/taggers/fasttext/samples.js';
import { tempDir, writeJsonl } from '../testing.js';
import { ensureBuilt, runCli, withoutProgress } from './run-cli.js';

const { dir, cleanup } = tempDir('assay-native-cli-');
afterAll(cleanup);

const FILES = ['a', 'b', 'c'];
// The spaCy tokenizer's scan runs in C too: gopher_repetition, gopher_quality and c4_quality read its tokens.
const TAGGERS = ['lid176', 'language_filter', 'gopher_v1', 'gopher_repetition', 'gopher_quality', 'c4_quality'];

beforeAll(() => {
  ensureBuilt();
  const passage = 'the same sentence comes back again and again in this page. ';
  FILES.forEach((f, k) =>
    writeJsonl(
      join(dir, 'src/documents', `${f}.jsonl.gz`),
      LANGUAGE_SAMPLES.map(([, text], i) => ({
        id: `${f}-${i}`,
        // Samples, and repetition for the n-gram rules: whole lines repeated, and passages across line breaks.
        text: `${text}\n${passage.repeat(1 + ((i + k) % 4))}\n${text}\n${i % 3 === 0 ? 'short line\n'.repeat(5) : ''}`,
      })),
    ),
  );
});

/** The attribute files of a run in a fresh copy of the documents, as text. */
function tagged(name: string, env: NodeJS.ProcessEnv): string[] {
  const root = join(dir, name);
  cpSync(join(dir, 'src'), root, { recursive: true });
  const r = runCli(['tag', '--documents', 'documents/*.jsonl.gz', '--taggers', ...TAGGERS, '--experiment', 'x', '--processes', '2'], { cwd: root, env: { ...process.env, ...env } });
  expect(withoutProgress(r.stderr), name).toBe('');
  expect(r.code, name).toBe(0);
  expect(r.stdout).toMatch(/tagged 3 file\(s\)/);
  return FILES.map((f) => gunzipSync(readFileSync(join(root, 'attributes/x', `${f}.jsonl.gz`))).toString('utf8'));
}

describe.runIf(addonStatus().addon !== null)('assay tag with the C addon', () => {
  it('writes, in pool processes and in pool threads, the attributes the JavaScript alone writes', () => {
    const js = tagged('js', { ASSAY_NATIVE: '0', ASSAY_POOL: 'processes' });
    expect(js[0]).toMatch(/"x__lid176__fr":\[\[0,\d+,0\.\d+\]\]/);
    expect(js.join('')).toMatch(/"x__gopher_repetition__duplicated_5_n_grams":\[\[0,\d+,0\.[1-9]/);
    // ASSAY_REQUIRE_NATIVE=1: a pool process or thread that could not load the addon would fail, not fall back.
    expect(tagged('processes', { ASSAY_POOL: 'processes', ASSAY_REQUIRE_NATIVE: '1' })).toEqual(js);
    expect(tagged('threads', { ASSAY_POOL: 'threads', ASSAY_REQUIRE_NATIVE: '1' })).toEqual(js);
  });
});
