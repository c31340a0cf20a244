// No job kind launched from the app reads or writes outside the workspace, whatever path-bearing field escapes (issue 12 items 6, 7).
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobKind } from '../shared/contract/index.js';
import { minhashConfig } from '../shared/dedupe/minhash-schema.js';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { SignatureCache } from '../workers/engine/dedupe/minhash/resume.js';
import { buildIndex } from '../workers/engine/index/index.js';
import { tempDir } from '../workers/engine/testing.js';
import { HostCallError } from '../workers/host/client.js';
import { openPreviewEngine } from '../workers/host/engine-adapter.js';
import { TAGGER_PATH_OPTIONS } from '../workers/host/jobs/plan-paths.js';
import { makeWorkspace, memoryHost, type MemoryHost } from '../workers/host/testing.js';
import { confineFixture, snapshot, stringOptions, type Fixture } from './confine-fixture.js';

const wsDir = tempDir('assay-confine-ws-');
const outDir = tempDir('assay-confine-out-');
let fx: Fixture;
let h: MemoryHost;
let before: Record<string, string>;
/** Every answer the host gave, to search for the secret. */
const answers: unknown[] = [];

beforeAll(() => {
  fx = confineFixture(wsDir.dir, outDir.dir);
  // MinHash keeps signatures under .minhash-resume/<config key>/ of its work root: that folder planted as a link out.
  const cache = new SignatureCache(join(fx.ws, 'attributes/planted'), minhashConfig.parse({ ...base.minhash, name: 'planted' }));
  mkdirSync(dirname(cache.dir), { recursive: true });
  symlinkSync(join(fx.outside, 'sentinel'), cache.dir);
  // Dedupe and MinHash lock each attribute file in its folder's .assay-done/: that folder planted as a link out.
  for (const name of ['ddlock', 'mhlock']) {
    mkdirSync(join(fx.ws, 'attributes', name), { recursive: true });
    symlinkSync(join(fx.outside, 'sentinel'), join(fx.ws, 'attributes', name, '.assay-done'));
  }
  before = snapshot(fx.outside);
  h = memoryHost(fx.ws, openPreviewEngine);
});
afterAll(async () => {
  await h.close();
  wsDir.cleanup();
  outDir.cleanup();
});

const DOCS = ['documents/*.jsonl.gz'];
const base: Record<Exclude<JobKind, 'index'>, Record<string, unknown>> = {
  tag: { documents: DOCS, taggers: ['char_length_v1'], experiment: 'e' },
  dedupe: { documents: DOCS, dedupe: { name: 'dd', paragraphs: { attribute_name: 'bff' } }, bloom_filter: { file: 'bloom/b.bin', read_only: false, estimated_doc_count: 1000, desired_false_positive_rate: 0.01 } },
  minhash: { documents: DOCS, name: 'mh' },
  mix: { streams: [{ name: 's', documents: DOCS, attributes: [], output: { path: 'output/s' }, filter: { exclude: ['$.x'] } }] },
  tokens: { documents: DOCS, destination: 'tokens/t', tokenizer: { name_or_path: 'gpt2', eos_token_id: 50256 }, dtype: 'uint16' },
  import: { documents: ['raw/*.parquet'], destination: 'imported' },
  warc: { documents: ['raw/*.warc.gz'], destination: 'extracted' },
  // Exact figures: reads the index only (texts through the engine's own confinement, tested with documents.get below) and writes nothing a recipe names.
  preview: { streams: [{ name: 's', documents: DOCS, attributes: [], output: { path: 'output/s' }, filter: { exclude: ['$.x'] } }] },
  decon: { name: 'dc', documents: DOCS, eval: [{ name: 'ev', path: 'evals/ev.jsonl', fields: ['q'] }] },
};

interface Case {
  kind: Exclude<JobKind, 'index'>;
  what: string;
  config: Record<string, unknown>;
  code: 'FORBIDDEN' | 'CONFIG';
  /** The field the refusal must name. */
  field?: string;
}

const stream = (over: Record<string, unknown>): Record<string, unknown> => ({ streams: [{ ...(base.mix.streams as Record<string, unknown>[])[0], ...over }] });

/** Each kind with each path-bearing field set to an escaping value (`P` leads outside), plus names that are not one segment. */
function cases(): Case[] {
  const out: Case[] = [];
  const pathOptions = stringOptions().filter((o) => TAGGER_PATH_OPTIONS.includes(o.key));
  for (const { how, prefix: P } of fx.escapes) {
    const c = (kind: Case['kind'], what: string, config: Record<string, unknown>, field: string): void => void out.push({ kind, what: `${what} (${how})`, config, code: 'FORBIDDEN', field });
    c('tag', 'documents glob', { ...base.tag, documents: [`${P}/documents/*.jsonl.gz`] }, 'documents');
    c('tag', 'documents file', { ...base.tag, documents: [`${P}/documents/leak.jsonl.gz`] }, 'documents');
    for (const { tagger, key } of pathOptions) {
      c('tag', `${tagger}.${key}`, { documents: DOCS, taggers: [tagger], experiment: 'e', assay: { tagger_options: { [tagger]: { [key]: `${P}/secret.txt` } } } }, `${tagger}.${key}`);
    }
    c('tag', 'preset model_path', { ...base.mix, assay: { tag: [{ experiment: 'e', taggers: [{ name: 'lid176', options: { model_path: `${P}/secret.txt` } }] }] } }, 'lid176.model_path');
    c('dedupe', 'documents', { ...base.dedupe, documents: [`${P}/documents/*.jsonl.gz`] }, 'documents');
    c('dedupe', 'bloom_filter.file', { ...base.dedupe, bloom_filter: { ...(base.dedupe.bloom_filter as object), file: `${P}/sentinel/b.bin` } }, 'bloom_filter.file');
    c('dedupe', 'work_dir.input', { ...base.dedupe, work_dir: { input: `${P}/sentinel/w` } }, 'work_dir.input');
    c('dedupe', 'work_dir.output', { ...base.dedupe, work_dir: { output: `${P}/sentinel/w` } }, 'work_dir.output');
    c('minhash', 'documents', { ...base.minhash, documents: [`${P}/documents/*.jsonl.gz`] }, 'documents');
    c('minhash', 'work_dir', { ...base.minhash, work_dir: `${P}/sentinel/w` }, 'work_dir');
    c('mix', 'documents', stream({ documents: [`${P}/documents/*.jsonl.gz`] }), 'streams[0].documents');
    c('mix', 'output.path', stream({ output: { path: `${P}/sentinel/out` } }), 'streams[0].output.path');
    c('mix', 'work_dir.input', { ...base.mix, work_dir: { input: `${P}/sentinel/w` } }, 'work_dir.input');
    c('mix', 'work_dir.output', { ...base.mix, work_dir: { output: `${P}/sentinel/w` } }, 'work_dir.output');
    c('tokens', 'documents', { ...base.tokens, documents: [`${P}/documents/*.jsonl.gz`] }, 'documents');
    c('tokens', 'destination', { ...base.tokens, destination: `${P}/sentinel/t` }, 'destination');
    c('tokens', 'tokenizer file', { ...base.tokens, tokenizer: { name_or_path: `${P}/tokenizer.json`, eos_token_id: 0 } }, 'tokenizer.name_or_path');
    c('tokens', 'tokenizer folder', { ...base.tokens, tokenizer: { name_or_path: P, eos_token_id: 0 } }, 'tokenizer.name_or_path');
    c('import', 'documents', { ...base.import, documents: [`${P}/documents/*.parquet`] }, 'documents');
    c('import', 'destination', { ...base.import, destination: `${P}/sentinel/d` }, 'destination');
    c('warc', 'documents', { ...base.warc, documents: [`${P}/documents/*.warc.gz`] }, 'documents');
    c('warc', 'destination', { ...base.warc, destination: `${P}/sentinel/d` }, 'destination');
    c('warc', 'lid_model', { ...base.warc, lid_model: `${P}/secret.txt` }, 'lid_model');
    c('warc', 'url_filter.domains_files', { ...base.warc, url_filter: { domains_files: [`${P}/secret.txt`] } }, 'url_filter.domains_files');
    c('decon', 'documents', { ...base.decon, documents: [`${P}/documents/*.jsonl.gz`] }, 'documents');
    c('decon', 'eval path', { ...base.decon, eval: [{ name: 'ev', path: `${P}/secret.txt`, fields: ['q'] }] }, 'eval[0].path');
    c('decon', 'index', { ...base.decon, index: `${P}/sentinel/dc.decon.idx` }, 'index');
  }
  // Derived paths: a symlinked attribute folder, documents a glob finds through a symlink.
  const d = (kind: Case['kind'], what: string, config: Record<string, unknown>, field: string): void => void out.push({ kind, what, config, code: 'FORBIDDEN', field });
  const LEAKY = ['leaky/documents/*.jsonl.gz'];
  d('tag', 'experiment folder is a symlink out', { ...base.tag, experiment: 'linked' }, 'experiment');
  d('tag', "tagger's own folder is a symlink out", { documents: DOCS, taggers: ['whitespace_tokenizer_v1'] }, 'taggers');
  d('tag', 'glob matches a symlinked documents file', { ...base.tag, documents: LEAKY }, 'documents');
  d('dedupe', 'name folder is a symlink out', { ...base.dedupe, dedupe: { name: 'linked', paragraphs: { attribute_name: 'bff' } } }, 'dedupe.name');
  d('dedupe', 'glob matches a symlinked documents file', { ...base.dedupe, documents: LEAKY }, 'documents');
  d('minhash', 'name folder is a symlink out', { ...base.minhash, name: 'linked' }, 'name');
  d('minhash', 'glob matches a symlinked documents file', { ...base.minhash, documents: LEAKY }, 'documents');
  d('mix', 'attribute set folder is a symlink out', stream({ attributes: ['linked'] }), 'streams[0].attributes[0]');
  d('mix', 'attribute set folder is a dangling symlink out', stream({ attributes: ['dangling'] }), 'streams[0].attributes[0]');
  d('mix', 'attribute set folder is a symlink loop', stream({ attributes: ['loop'] }), 'streams[0].attributes[0]');
  d('dedupe', 'name folder is a dangling symlink out', { ...base.dedupe, dedupe: { name: 'dangling', paragraphs: { attribute_name: 'bff' } } }, 'dedupe.name');
  d('tag', 'experiment folder is a symlink loop', { ...base.tag, experiment: 'loop' }, 'experiment');
  d('mix', 'glob matches a symlinked documents file', stream({ documents: LEAKY }), 'streams[0].documents');
  d('mix', '`..` after a wildcard', stream({ documents: ['documents/*/../../../*/documents/*.jsonl.gz'] }), 'streams[0].documents');
  d('tokens', 'glob matches a symlinked documents file', { ...base.tokens, documents: LEAKY }, 'documents');
  d('import', 'glob matches a symlinked file', { ...base.import, documents: LEAKY }, 'documents');
  d('warc', 'glob matches a symlinked file', { ...base.warc, documents: LEAKY }, 'documents');
  d('import', 'the destination is a symlink out', { documents: ['documents/*.jsonl.gz'], destination: 'attributes/linked' }, 'destination');
  d('warc', 'the destination is a dangling symlink out', { documents: ['documents/*.jsonl.gz'], destination: 'attributes/dangling' }, 'destination');
  d('mix', 'an unshuffled output folder is a symlink out', { ...stream({ documents: ['documents/sub/*.jsonl.gz'], output: { path: 'output/u' } }), shuffle: false }, 'streams[0].output.path');
  d('minhash', "this config's resume folder is a symlink out", { ...base.minhash, name: 'planted' }, 'name');
  d('dedupe', 'the lock folder of its attribute files is a symlink out', { ...base.dedupe, dedupe: { name: 'ddlock', paragraphs: { attribute_name: 'bff' } } }, 'dedupe.name');
  d('minhash', 'the lock folder of its attribute files is a symlink out', { ...base.minhash, name: 'mhlock' }, 'name');
  d('decon', 'name folder is a symlink out', { ...base.decon, name: 'linked' }, 'name');
  d('decon', 'name folder is a dangling symlink out', { ...base.decon, name: 'dangling' }, 'name');
  d('decon', 'glob matches a symlinked documents file', { ...base.decon, documents: LEAKY }, 'documents');
  // Names that become one path segment: refused by the schema, in the app and the CLI alike.
  const n = (kind: Case['kind'], what: string, config: Record<string, unknown>, field: string): void => void out.push({ kind, what, config, code: 'CONFIG', field });
  n('tag', 'experiment ../', { ...base.tag, experiment: '../../../outside/x' }, 'experiment');
  n('tag', 'preset experiment ../', { ...base.mix, assay: { tag: [{ experiment: '../x', taggers: ['char_length_v1'] }] } }, 'assay.tag[0].experiment');
  n('dedupe', 'name ../', { ...base.dedupe, dedupe: { name: '../../../outside/x', paragraphs: { attribute_name: 'bff' } } }, 'dedupe.name');
  n('dedupe', 'attribute_name ../', { ...base.dedupe, dedupe: { documents: { attribute_name: '../../../outside/x', key: '$.text' } } }, 'dedupe.documents.attribute_name');
  n('dedupe', 'document_dir ..', { ...base.dedupe, dedupe: { document_dir: '..', paragraphs: { attribute_name: 'bff' } } }, 'dedupe.document_dir');
  n('minhash', 'name ..', { ...base.minhash, name: '..' }, 'name');
  n('minhash', 'document_dir ..', { ...base.minhash, document_dir: '..' }, 'document_dir');
  n('mix', 'stream name ../', stream({ name: '../../../outside/x' }), 'streams[0].name');
  n('mix', 'stream name with a slash', stream({ name: 'a/b' }), 'streams[0].name');
  n('mix', 'attribute set ../', stream({ attributes: ['../../../outside/x'] }), 'streams[0].attributes[0]');
  n('decon', 'name ../', { ...base.decon, name: '../../../outside/x' }, 'name');
  return out;
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; field?: string; message: string }> {
  try {
    const accepted = await p;
    answers.push(accepted);
    // Never left running: an accepted escape is a failure, and its job is stopped at once.
    const jobId = (accepted as { jobId?: string }).jobId;
    if (jobId !== undefined) await h.client.invoke('jobs.cancel', { jobId });
  } catch (e) {
    if (e instanceof HostCallError) {
      answers.push(e.payload);
      return e.payload;
    }
    throw e;
  }
  throw new Error('the job was accepted');
}

describe('confinement of app jobs', () => {
  it('every base config is accepted as it is (so each refusal below is the escaping field)', async () => {
    for (const [kind, config] of Object.entries(base)) {
      const r = await h.client.invoke('jobs.check', { kind: kind as JobKind, configText: JSON.stringify(config) });
      expect(r, kind).toEqual({ ok: true });
    }
  });

  it('refuses every escaping path-bearing field in jobs.check and jobs.start (lexical, absolute, symlinked, derived), naming the field', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(80);
    const failures: string[] = [];
    for (const c of all) {
      const params = { kind: c.kind, configText: JSON.stringify(c.config) };
      const checked = await h.client.invoke('jobs.check', params);
      answers.push(checked);
      const started = await refusal(h.client.invoke('jobs.start', params)).catch((e: Error): { code: string; field?: string; message: string } => ({ code: 'ACCEPTED', message: e.message }));
      for (const [how, e] of [['check', checked.error], ['start', started]] as const) {
        if (e?.code !== c.code || (c.field !== undefined && e.field !== c.field)) failures.push(`${c.kind} ${c.what} [${how}]: ${JSON.stringify(e)}`);
      }
    }
    expect(failures).toEqual([]);
    // A refused job starts no process and records nothing.
    expect(await h.client.invoke('jobs.list', {})).toEqual([]);
    expect(existsSync(join(fx.ws, '.assay/runs'))).toBe(false);
  });

  it('refuses a config file outside, however it is reached', async () => {
    for (const { prefix } of fx.escapes) {
      const e = await refusal(h.client.invoke('jobs.start', { kind: 'mix', configPath: `${prefix}/secret.txt` }));
      expect(e).toMatchObject({ code: 'FORBIDDEN', field: 'configPath' });
    }
  });

  it('every string option of every built-in tagger is classified: a path (checked) or not', () => {
    // Options that never name a file: inline lists, enums, regexes, replacement text.
    const NOT_PATHS = new Set(['format', 'extra_domains', 'extra_urls', 'banned_words', 'banned_subwords', 'soft_banned_words', 'profile', 'language', 'stop_words', 'stop_chars', 'email_replacement', 'ip_replacement', 'replace_char', 'symbols_to_remove', 'regex_exp', 'database', 'languages', 'level', 'preprocess', 'words', 'tokenizer_name_or_path', 'sha256']);
    const unclassified = stringOptions().filter((o) => !TAGGER_PATH_OPTIONS.includes(o.key) && !NOT_PATHS.has(o.key));
    expect(unclassified).toEqual([]);
    // Each listed path option exists in some tagger (the list is not stale).
    for (const key of TAGGER_PATH_OPTIONS) expect(stringOptions().some((o) => o.key === key), key).toBe(true);
  });
});

describe('symlinked documents in the app (item 7)', () => {
  it("an index job refuses an outside-pointing documents file, naming it; documents.get and explain refuse to read one from an index the CLI built", async () => {
    const ws2 = tempDir('assay-confine-leak-');
    try {
      confineFixture(ws2.dir, tempDir('assay-confine-leak-out-').dir);
      // The leaking file sits among the workspace's own documents this time.
      symlinkSync(join(fx.outside, 'documents/leak.jsonl.gz'), join(ws2.dir, 'documents/leak.jsonl.gz'));
      const h2 = memoryHost(ws2.dir, openPreviewEngine);
      try {
        const job = await h2.client.invoke('jobs.start', { kind: 'index' });
        const end = await h2.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
        expect(end.state).toBe('failed');
        expect(end.error).toMatch(/documents\/leak\.jsonl\.gz' leads outside the workspace through a symbolic link/);
        expect(existsSync(join(ws2.dir, '.assay/index.sqlite'))).toBe(false);
        answers.push(end, h2.events);
        // The CLI follows links (as tools do) and indexes the outside file; the app still will not read its text.
        await buildIndex(ws2.dir);
        const get = await refusal(h2.client.invoke('documents.get', { id: 'leak-1' }));
        expect(get).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/documents\/leak\.jsonl\.gz' leads outside/) });
        const recipeText = (await h2.client.invoke('recipe.read', { path: 'recipes/short.yaml' })).text.replace('attributes: [lengths]', 'attributes: []').replace(/exclude:\n.*\n/, 'exclude: ["$.missing"]\n');
        // Explain may not need the text at all; if it answers, the secret check below holds it to not carrying it.
        const why = await h2.client.call('preview.explain', { recipeText, id: 'leak-1' });
        answers.push(why);
        if (!why.ok) expect(why.error.code).toBe('FORBIDDEN');
        // Documents inside still read fine.
        expect((await h2.client.invoke('documents.get', { id: 'f0-d0' })).text.length).toBeGreaterThan(0);
      } finally {
        await h2.close();
      }
    } finally {
      ws2.cleanup();
    }
  });
});

describe('the CLI agrees on names (item 6)', () => {
  it('refuses a stream name with a slash and an experiment with ../, naming the field, writing nothing', () => {
    const recipe = join(fx.ws, 'recipes/slash.yaml');
    writeFileSync(recipe, 'streams:\n  - name: nested/name\n    documents: [documents/*.jsonl.gz]\n    output: {path: output/cli}\n    filter: {exclude: ["$.x"]}\n');
    const mix = runCli(['mix', '-c', recipe], { cwd: fx.ws });
    expect(mix.code).toBe(2); // CONFIG
    expect(mix.stderr).toContain(`${recipe}:2: streams[0].name: must be a single name without "/"`);
    expect(existsSync(join(fx.ws, 'output/cli'))).toBe(false);
    const tag = runCli(['tag', '--documents', 'documents/*.jsonl.gz', '--taggers', 'char_length_v1', '--experiment', `../${fx.outside.split('/').pop()}/sentinel`], { cwd: fx.ws });
    expect(tag.code).toBe(2);
    expect(tag.stderr).toMatch(/experiment: experiment must be a single name/);
    expect(readdirSync(join(fx.outside, 'sentinel'))).toEqual([]);
  });
});

describe('after every attempt', () => {
  it('nothing outside was written, and the outside secret appears in no answer or event', () => {
    expect(snapshot(fx.outside)).toEqual(before);
    expect(readdirSync(join(fx.outside, 'sentinel'))).toEqual([]);
    const said = JSON.stringify([answers, h.events]);
    expect(said).not.toContain(fx.secret);
  });
});

describe('running jobs (item 6)', () => {
  it('planted `.tmp` symlinks beside outputs (tag, dedupe and its bloom filter, mix) are replaced, never written through', async () => {
    const ws = tempDir('assay-confine-run-');
    const out = tempDir('assay-confine-run-out-');
    try {
      makeWorkspace(ws.dir, { files: 1, docs: 20 });
      const plant = (rel: string): string => {
        const target = join(out.dir, rel.replace(/\//g, '_'));
        writeFileSync(target, 'untouched\n');
        mkdirSync(dirname(join(ws.dir, rel)), { recursive: true });
        symlinkSync(target, join(ws.dir, rel));
        return target;
      };
      const targets = ['attributes/planted/part-0.jsonl.gz.tmp', 'attributes/dd/part-0.jsonl.gz.tmp', 'bloom/b.bin.tmp', 'output/s/s-0000.json.gz.tmp'].map(plant);
      const h3 = memoryHost(ws.dir, openPreviewEngine);
      try {
        const configs: [JobKind, Record<string, unknown>][] = [
          ['tag', { ...base.tag, experiment: 'planted' }],
          ['dedupe', base.dedupe],
          ['mix', base.mix],
        ];
        for (const [kind, config] of configs) {
          const job = await h3.client.invoke('jobs.start', { kind, configText: JSON.stringify(config) });
          const end = await h3.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
          expect(end.error, kind).toBeUndefined();
          expect(end.state, kind).toBe('done');
        }
      } finally {
        await h3.close();
      }
      for (const t of targets) expect(readFileSync(t, 'utf8'), t).toBe('untouched\n');
      expect(existsSync(join(ws.dir, 'output/s/s-0000.json.gz'))).toBe(true);
    } finally {
      ws.cleanup();
      out.cleanup();
    }
  });
});
