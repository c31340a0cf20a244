// Every path a planned job can read or write — config fields, tagger option files, and the paths derived from them — confined to the workspace.
import { dirname, join, resolve } from 'node:path';
import { itemsPath } from '../../engine/decon/report/items.js';
import { directoryName } from '../../engine/dedupe/dolma/index.js';
import { dedupeOutputPath } from '../../engine/dedupe/dolma/paths.js';
import { SignatureCache } from '../../engine/dedupe/minhash/resume.js';
import { attributePathFor, expandGlobs, mixerUnshuffledOutputPath } from '../../engine/io/index.js';
import { importOutputPath } from '../../engine/parquet/index.js';
import { attributeLockPath } from '../../engine/io/attribute-lock.js';
import { markerPath } from '../../engine/io/markers.js';
import { attributeSetFolder } from '../../engine/manifest/write.js';
import { planWarcTasks } from '../../engine/warc/plan.js';
import { HostError } from '../errors.js';
import { confiner, globBase } from '../paths.js';
import type { JobPlan } from './plan.js';

interface PlannedPath {
  path: string;
  field: string;
  /** The glob `path` is the base of. */
  pattern?: string;
  /** The job writes it (a file, or a folder and everything below it): no two running jobs may write the same place. */
  write?: true;
}

/** A place a job writes, resolved inside the workspace, and the config field that named it. */
export interface PlannedWrite {
  path: string;
  field: string;
}

/**
 * Tagger options naming files the tagger reads (blocklists, word lists, the public suffix list,
 * fastText models, the decon index). Every other string option of a built-in tagger is not a path: a test walks the
 * registry's option schemas so a new path option cannot be added without being listed here.
 */
export const TAGGER_PATH_OPTIONS: readonly string[] = ['lists', 'domains_files', 'urls_files', 'banned_words_files', 'banned_subwords_files', 'soft_banned_words_files', 'public_suffix_list', 'model_path', 'index'];

const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Paths named by the config itself: glob bases, outputs, filter and work files, tokenizer and tagger option files. */
function configPaths(plan: JobPlan): PlannedPath[] {
  const globs = (ps: readonly string[], field: string): PlannedPath[] => ps.map((p, i) => ({ path: globBase(p), pattern: p, field: ps.length > 1 ? `${field}[${i}]` : field }));
  const workDir = (w: { input?: string | null; output?: string | null } | undefined, at = 'work_dir'): PlannedPath[] =>
    [w?.input, w?.output].flatMap((p, i) => (p ? [{ path: p, field: `${at}.${i === 0 ? 'input' : 'output'}` }] : []));
  switch (plan.kind) {
    case 'tag':
      return [
        ...globs(plan.tag.documents, 'documents'),
        ...plan.tag.taggers.flatMap((t) =>
          Object.entries(t.options ?? {}).flatMap(([key, v]) => (TAGGER_PATH_OPTIONS.includes(key) ? strings(v).map((path) => ({ path, field: `${t.name}.${key}` })) : [])),
        ),
      ];
    case 'dedupe':
      return [
        ...globs(plan.dedupe.documents, 'documents'),
        { path: plan.dedupe.bloom_filter.file, field: 'bloom_filter.file', ...(plan.dedupe.bloom_filter.read_only ? {} : { write: true as const }) },
        ...workDir(plan.dedupe.work_dir),
      ];
    case 'minhash':
      return [...globs(plan.minhash.documents, 'documents'), ...(plan.minhash.work_dir ? [{ path: plan.minhash.work_dir, field: 'work_dir', write: true as const }] : [])];
    case 'mix':
      return [
        ...plan.mix.streams.flatMap((s, i) => [
          ...globs(s.documents, `streams[${i}].documents`),
          { path: s.output.path, field: `streams[${i}].output.path`, write: true as const },
          // Unshuffled outputs go to <path>/documents/…
          { path: join(s.output.path, 'documents'), field: `streams[${i}].output.path` },
        ]),
        ...workDir(plan.mix.work_dir),
      ];
    case 'tokens': {
      const t = plan.tokens;
      // A file (or a folder's tokenizer.json) wins over a built-in name like `gpt2`, so both are checked; an absent one passes.
      return [
        ...globs(t.documents, 'documents'),
        { path: t.destination, field: 'destination', write: true as const },
        { path: join(t.destination, '.assay'), field: 'destination' },
        ...[t.tokenizer.nameOrPath, join(t.tokenizer.nameOrPath, 'tokenizer.json')].map((path) => ({ path, field: 'tokenizer.name_or_path' })),
      ];
    }
    case 'index':
    case 'preview':
      // The index job confines what it reads itself (buildIndex with `confine`); a preview reads the index and, for
      // span replacements, document texts through the engine's own confinement (openPreviewEngine's checkPath).
      return [];
    case 'warc': {
      const w = plan.warc;
      const lists = w.urlFilter ? Object.entries(w.urlFilter).flatMap(([key, v]) => (TAGGER_PATH_OPTIONS.includes(key) ? strings(v).map((path) => ({ path, field: `url_filter.${key}` })) : [])) : [];
      return [
        ...globs(w.documents, 'documents'),
        { path: w.destination, field: 'destination' },
        { path: join(w.destination, 'documents'), field: 'destination', write: true as const },
        ...(w.lidModel ? [{ path: w.lidModel, field: 'lid_model' }] : []),
        ...lists,
      ];
    }
    case 'import':
      return [...globs(plan.import.documents, 'documents'), { path: plan.import.destination, field: 'destination' }, { path: join(plan.import.destination, 'documents'), field: 'destination', write: true }];
    case 'decon':
      return [
        ...globs(plan.decon.documents, 'documents'),
        ...plan.decon.sets.map((e, i) => ({ path: e.path, field: `eval[${i}].path` })),
        // Built there when missing or (rebuild) stale; reused as it is otherwise.
        { path: plan.decon.indexPath, field: 'index', write: true as const },
      ];
  }
}

/** The documents files the job will read, with the files derived from each (attributes read or written, markers, outputs). */
async function derivedPaths(plan: JobPlan, root: string): Promise<PlannedPath[]> {
  const files = async (patterns: readonly string[]): Promise<string[]> => (await expandGlobs(patterns, { cwd: root })).map((p) => resolve(root, p));
  const out: PlannedPath[] = [];
  const add = (path: string, field: string, write = false): void => void out.push({ path, field, ...(write ? { write: true as const } : {}) });
  switch (plan.kind) {
    case 'tag': {
      // Attribute sets as the tag runtime names them: the experiment, else the tagger's own name.
      const sets = new Map<string, string>();
      for (const t of plan.tag.taggers) {
        const exp = t.experiment ?? plan.tag.experiment;
        sets.set(exp ?? t.name, exp !== undefined ? 'experiment' : 'taggers');
      }
      for (const doc of await files(plan.tag.documents)) {
        add(doc, 'documents');
        for (const [name, field] of sets) {
          const attr = attributePathFor(doc, name);
          add(attr, field, true);
          add(markerPath(attr), field, true);
        }
      }
      break;
    }
    case 'dedupe': {
      const d = plan.dedupe.dedupe;
      for (const doc of await files(plan.dedupe.documents)) {
        add(doc, 'documents');
        const out = dedupeOutputPath(doc, d.document_dir, directoryName(d));
        add(out, 'dedupe.name', true);
        add(attributeLockPath(out), 'dedupe.name', true);
      }
      break;
    }
    case 'minhash': {
      const m = plan.minhash;
      const outputs: string[] = [];
      for (const doc of await files(m.documents)) {
        add(doc, 'documents');
        outputs.push(dedupeOutputPath(doc, m.document_dir, m.name));
        add(outputs.at(-1) as string, 'name', true);
        add(attributeLockPath(outputs.at(-1) as string), 'name', true);
      }
      // Spill and resume folders live in the work root (default: the first output's folder).
      const workRoot = m.work_dir !== undefined ? resolve(root, m.work_dir) : outputs[0] !== undefined ? dirname(outputs[0]) : undefined;
      // The resume folder of this config is reused as it is (the entries below it are replaced, never followed).
      if (workRoot !== undefined) for (const p of [workRoot, join(workRoot, '.minhash-resume'), new SignatureCache(workRoot, m).dir]) add(p, m.work_dir !== undefined ? 'work_dir' : 'name');
      break;
    }
    case 'mix':
      for (const [i, s] of plan.mix.streams.entries()) {
        for (const doc of await files(s.documents)) {
          add(doc, `streams[${i}].documents`);
          for (const [j, set] of s.attributes.entries()) add(attributePathFor(doc, set), `streams[${i}].attributes[${j}]`);
          // Unshuffled, each input has its own output below <path>/documents/, in folders that may already exist.
          if (!plan.mix.shuffle) add(mixerUnshuffledOutputPath(s.output.path, doc), `streams[${i}].output.path`);
        }
      }
      break;
    case 'tokens':
      for (const doc of await files(plan.tokens.documents)) add(doc, 'documents');
      break;
    case 'index':
    case 'preview':
      break;
    case 'warc':
      // No match is the job's own error when it runs (as for the other kinds), not a confinement question.
      if ((await files(plan.warc.documents)).length === 0) break;
      for (const t of await planWarcTasks(plan.warc.documents, plan.warc.destination, root)) {
        add(t.input, 'documents');
        add(t.output, 'destination', true);
        add(markerPath(t.output), 'destination', true);
      }
      break;
    case 'decon': {
      // As a tag run of one tagger into attributes/<name>/, plus the eval items file beside each set folder.
      const name = plan.decon.name;
      const folders = new Set<string>();
      for (const doc of await files(plan.decon.documents)) {
        add(doc, 'documents');
        const attr = attributePathFor(doc, name);
        add(attr, 'name', true);
        add(markerPath(attr), 'name', true);
        folders.add(attributeSetFolder(attr, name));
      }
      for (const f of folders) add(itemsPath(f), 'name', true);
      break;
    }
    case 'import':
      for (const input of await files(plan.import.documents)) {
        add(input, 'documents');
        const out = importOutputPath(resolve(root, plan.import.destination), input);
        add(out, 'destination', true);
        add(markerPath(out), 'destination', true);
      }
      break;
  }
  return out;
}

/** A job launched from the app reads and writes only inside its workspace; anything else is FORBIDDEN. Returns the places it writes. */
export async function checkPlanPaths(plan: JobPlan, root: string): Promise<PlannedWrite[]> {
  const inside = confiner(root, { batch: true });
  const writes: PlannedWrite[] = [];
  for (const { path, field, pattern, write } of configPaths(plan)) {
    if (/^s3:\/\//i.test(path)) throw new HostError('FORBIDDEN', `${field}: S3 paths are not available from the app`, field);
    // `..` after a wildcard climbs from wherever the wildcard matched: refused outright (whatever happens to match today).
    if (pattern !== undefined && pattern.slice(path.length).split('/').includes('..')) {
      throw new HostError('FORBIDDEN', `${field}: '${pattern}' has ".." after a wildcard, which may lead outside the workspace; write the folder out before the wildcard`, field);
    }
    const abs = inside(path, field);
    if (write) writes.push({ path: abs, field });
  }
  // A glob may still leave through `..` after a wildcard, or through symlinks it expands; the files it matches are checked one by one.
  const derived = await derivedPaths(plan, root);
  for (let i = 0; i < derived.length; i++) {
    const { path, field, write } = derived[i] as PlannedPath;
    const abs = inside(path, field);
    if (write) writes.push({ path: abs, field });
    // Tens of thousands of files: let the host answer other calls between slices.
    if (i % 2000 === 1999) await new Promise((r) => setImmediate(r));
  }
  return writes;
}
