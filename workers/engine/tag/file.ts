// Tag one documents file: one read feeds every tagger; one attributes file per output set, row for row.
import { stat } from 'node:fs/promises';
import type { AssayError } from '../errors.js';
import { AssayError as Err } from '../errors.js';
import { AtomicWriter, compressedDeltas, inferCodec, parseDocumentLine, readLineBatches, writeLines } from '../io/index.js';
import { attributeRow, attributeRowOf, codePointMap, groupSpans, makeVariableName } from './output.js';
import { nativeRows, type NativeRows } from './rows.js';
import { lockAttributeFiles } from '../io/attribute-lock.js';
import { doneMarkers, writeMarkers, type Marker } from './markers.js';
import type { AnySpec } from './registry.js';
import type { TagDocument, Tagger, TaggerContext, TagSpan } from './types.js';
import { pinViews, releaseViews } from './view.js';

/** One output attribute set: its file, and the taggers whose keys go into it with their key prefix. */
export interface OutputSet {
  name: string;
  path: string;
  taggers: { spec: AnySpec; options: unknown; prefix: string }[];
}

export interface FileTask {
  input: string;
  outputs: OutputSet[];
  seed: number;
  cwd: string;
  /** The run's settings fingerprint: with it, the file's markers are written as soon as it is committed, under its lock. */
  fingerprint?: string;
  /** Once the file's lock is held: skip it when another run left markers this run would accept (it tagged the file meanwhile). */
  recheck?: boolean;
}

export interface FileResult {
  input: string;
  /** sha256 of the documents file as stored, hashed while it was read (run manifests). */
  inputSha256: string;
  docs: number;
  /** Estimated tokens of the documents' texts (⌈UTF-8 bytes / 4⌉ each), for the manifest. */
  tokens: number;
  bytes: number;
  badLines: number;
  badLineSamples: string[];
  /** Each attribute file as written (same order as the task's outputs). */
  outputs: { path: string; size: number; sha256: string }[];
  /** The markers written for them (none without the task's fingerprint), or found when the file was skipped. */
  markers: Marker[];
  /** Another run tagged the file while this one waited for its lock (nothing was written). */
  skipped?: boolean;
}

export interface TagFileOptions {
  signal?: AbortSignal;
  skipBadLines?: boolean;
  /** Compression level of the attribute files (default: gzip TAG_GZIP_LEVEL, zstd 3). */
  compressionLevel?: number;
  onProgress?: (delta: { compressedBytes: number; bytes: number; docs: number }) => void;
  log?: (message: string) => void;
}

const BATCH_LINES = 256;

/**
 * A batch's documents are tagged in groups, tagger by tagger: one tagger over the group's documents, then the next.
 * Each tagger's tables (fastText's rows and token cache, spaCy's caches, the n-gram kernels' scratch) then stay in
 * the CPU's caches from one document to the next, instead of being pushed out by the other taggers' at every
 * document. Over bench/tag's prose, CPU of the run, alternated with one document at a time (8 pairs each): the
 * FineWeb pass 1.095 s against 1.180 (7 faster) and, sustained, 0.349 against 0.421 (8); the Dolma pass 0.388
 * against 0.415 (7) but, sustained, 0.117 against 0.113 (2). Larger groups hold more documents and spans until the
 * rows are written, which costs the Dolma pass (c4_v2 writes a span per line; the likely cost is the scavenger
 * copying what is still held): while a batch was still parsed at once, groups of 64 ran its sustained half in 0.153 s
 * against 0.122 for 32 (1 of 8), and the FineWeb pass was no faster (4 of 8). GROUP_CHARS bounds a group of long
 * documents at about three times a typical group's JSON there (not measured further).
 */
export const GROUP_DOCS = 32;
export const GROUP_CHARS = 256 * 1024;

/**
 * gzip level of attribute files unless the run names one. Not Dolma's 6: level 6 took a fifth of a Dolma tagger pass's
 * CPU (bench/tag), level 4 about half that, for files 5–8 % larger. Attribute files are read back by the mixer and
 * the index; the mixer's output, the corpus kept, still gets 6.
 */
export const TAG_GZIP_LEVEL = 4;

/** The level an attribute file at `path` is written with. */
export function attributeLevel(path: string, level: number | undefined): number | undefined {
  return level ?? (inferCodec(path) === 'gzip' ? TAG_GZIP_LEVEL : undefined);
}

/** Key prefix `<experiment>__<tagger>` (experiment defaults to the tagger's own name). */
export function keyPrefix(experiment: string | undefined, tagger: string): string {
  return `${makeVariableName(experiment ?? tagger)}__${makeVariableName(tagger)}`;
}

export async function tagFile(task: FileTask, opts: TagFileOptions = {}): Promise<FileResult> {
  const result: FileResult = { input: task.input, inputSha256: '', docs: 0, tokens: 0, bytes: 0, badLines: 0, badLineSamples: [], outputs: [], markers: [] };
  const ctx: TaggerContext = { seed: task.seed, cwd: task.cwd, inputBytes: await stat(task.input).then((s) => s.size, () => undefined) };
  const sets = await Promise.all(
    task.outputs.map(async (set) => ({
      set,
      taggers: await Promise.all(set.taggers.map(async (t) => ({ ...t, tagger: (await t.spec.create(t.options, ctx)) as Tagger }))),
    })),
  );
  // The addon writes a set's attributes object unless one of its taggers adds values that are not spans.
  const native = sets.map((s) => (s.taggers.every((t) => t.tagger.values === undefined) ? nativeRows() : null));
  const writers: AtomicWriter[] = [];
  const paths = task.outputs.map((o) => o.path);
  let unlock = (): void => undefined;
  try {
    const lock = await lockAttributeFiles(paths, 'tag', opts);
    unlock = lock.release;
    // Another run may have tagged the file since this one planned it (the run it waited for, most often): when its
    // markers say so, the file is done.
    const found = task.recheck && task.fingerprint !== undefined ? await doneMarkers(task.input, paths, task.fingerprint) : null;
    if (found !== null) {
      opts.log?.(`${task.input}: tagged by ${lock.waited ? 'the run this one waited for' : 'another run since this one started'}; skipped`);
      return { ...result, markers: found as Marker[], skipped: true };
    }
    for (const s of sets) writers.push(await AtomicWriter.open(s.set.path, { mkdir: true, level: attributeLevel(s.set.path, opts.compressionLevel) }));
    const bad = (err: AssayError): void => {
      if (!opts.skipBadLines) throw err;
      result.badLines++;
      if (result.badLineSamples.length < 20) result.badLineSamples.push(err.message);
      opts.log?.(`skipped bad line: ${err.message}`);
    };
    let nextLine = 1;
    let lastBad = 0;
    // Placeholder rows keep attribute files aligned with their documents when a line is skipped.
    const placeholders = (upTo: number): string[] => {
      const rows: string[] = [];
      for (; nextLine <= upTo; nextLine++) rows.push(attributeRow(null, {}, undefined));
      return rows;
    };
    const batches = readLineBatches(task.input, {
      signal: opts.signal,
      batchLines: BATCH_LINES,
      onBadLine: opts.skipBadLines
        ? (e) => {
            lastBad = Math.max(lastBad, e.line ?? 0);
            bad(e);
          }
        : undefined,
      onProgress: compressedDeltas(opts.onProgress),
      onDigest: (d) => (result.inputSha256 = d.sha256),
    });
    for await (const batch of batches) {
      const gap = placeholders(batch.firstLine - 1);
      // Rows, not one string per batch: see writeLines.
      const rows = sets.map(() => [...gap]);
      let bytes = 0;
      for (let g0 = 0, g1 = 0; g0 < batch.lines.length; g0 = g1) {
        g1 = groupEnd(batch.lines, g0);
        // Parsed a group at a time: a whole batch parsed at once would hold its texts past the next scavenges.
        const docs = batch.lines.slice(g0, g1).map((line, i) => toTagDocument(line, task.input, batch.firstLine + g0 + i, bad));
        const spansOf = tagByTagger(sets, native, docs, task.input, batch.firstLine + g0);
        for (let i = g0; i < g1; i++) {
          const lineNo = batch.firstLine + i;
          bytes += batch.bytes[i] ?? 0;
          const doc = docs[i - g0]!;
          // Computed once per document, shared by every output set.
          const cpMap = doc === null ? null : codePointMap(doc.text);
          sets.forEach((s, k) => {
            if (doc === null) {
              rows[k]!.push(attributeRow(null, {}, undefined));
              return;
            }
            const rowsOf = native[k];
            const spans = spansOf[k]?.[i - g0] ?? null;
            const text = spans === null ? null : rowsOf!.attributes(s.taggers, spans, cpMap);
            if (text !== null) {
              rows[k]!.push(attributeRowOf(doc.id, text, doc.source));
              return;
            }
            const attrs: Record<string, [number, number, number][]> = {};
            for (let j = 0; j < s.taggers.length; j++) {
              const t = s.taggers[j]!;
              groupSpans(attrs, t.prefix, spans === null ? runTagger(t.tagger, t.spec.name, doc, task.input, lineNo) : spans[j]!, t.spec.defaults, cpMap);
              const values = t.tagger.values?.(doc);
              // Non-span values go in as they are (the row is JSON; readers treat a non-span array as a value).
              if (values) for (const [type, v] of Object.entries(values)) (attrs as Record<string, unknown>)[`${t.prefix}__${makeVariableName(type)}`] = v;
            }
            rows[k]!.push(attributeRow(doc.id, attrs, doc.source));
          });
          if (doc !== null) {
            result.docs++;
            result.tokens += Math.ceil(Buffer.byteLength(doc.text, 'utf8') / 4);
          }
        }
      }
      nextLine = batch.firstLine + batch.lines.length;
      result.bytes += bytes;
      opts.onProgress?.({ compressedBytes: 0, bytes, docs: batch.lines.length });
      await Promise.all(writers.map((w, k) => writeLines(w, rows[k]!)));
    }
    const tail = placeholders(lastBad);
    if (tail.length > 0) await Promise.all(writers.map((w) => writeLines(w, tail)));
    for (const w of writers) await w.commit();
    result.outputs = writers.map((w) => ({ path: w.path, size: w.bytesOut, sha256: w.sha256 }));
    if (task.fingerprint !== undefined) result.markers = await writeMarkers(task.input, task.outputs, task.fingerprint, result);
  } catch (e) {
    await Promise.all(writers.map((w) => w.abort().catch(() => undefined)));
    throw e;
  } finally {
    unlock();
    for (const s of sets) for (const t of s.taggers) await t.tagger.close?.();
  }
  return result;
}

/** Where the group of lines starting at `from` ends (see GROUP_DOCS): at least one line past `from`. */
function groupEnd(lines: readonly string[], from: number): number {
  let chars = 0;
  let i = from;
  while (i < lines.length && i - from < GROUP_DOCS && chars < GROUP_CHARS) chars += (lines[i++] as string).length;
  return i;
}

/**
 * Each output set's spans per document of the group ([document][tagger]), made tagger by tagger; null for a set the
 * addon does not write, which tags each document in its own loop (its taggers' `values` follow their `tag`).
 */
function tagByTagger(sets: readonly { taggers: readonly { tagger: Tagger; spec: { name: string } }[] }[], native: readonly (NativeRows | null)[], docs: readonly (TagDocument | null)[], file: string, firstLine: number): (TagSpan[][][] | null)[] {
  pinViews(docs.flatMap((d) => (d === null ? [] : [d.text])));
  try {
    return sets.map((s, k) => {
      if (native[k] === null) return null;
      const spans = docs.map(() => new Array<TagSpan[]>(s.taggers.length));
      s.taggers.forEach(({ tagger, spec }, j) => {
        for (let d = 0; d < docs.length; d++) {
          const doc = docs[d];
          if (doc !== null && doc !== undefined) spans[d]![j] = runTagger(tagger, spec.name, doc, file, firstLine + d);
        }
      });
      return spans;
    });
  } finally {
    releaseViews();
  }
}

function runTagger(tagger: Tagger, name: string, doc: TagDocument, file: string, line: number): ReturnType<Tagger['tag']> {
  try {
    return tagger.tag(doc);
  } catch (e) {
    throw new Err('INTERNAL', `tagger '${name}' failed on document ${JSON.stringify(doc.id)}: ${(e as Error).message}`, { file, line, cause: e });
  }
}

/** Dolma's InputSpec: `id` and `text` must be strings; `source` defaults to "". */
function toTagDocument(line: string, file: string, lineNo: number, bad: (e: AssayError) => void): TagDocument | null {
  let r: Record<string, unknown>;
  try {
    r = parseDocumentLine(line, file, lineNo);
  } catch (e) {
    bad(e as AssayError);
    return null;
  }
  if (typeof r.id !== 'string') {
    bad(new Err('PARSE', r.id === undefined ? "document has no 'id'" : "document 'id' must be a string for tagging (as in Dolma)", { file, line: lineNo }));
    return null;
  }
  if (typeof r.text !== 'string') {
    bad(new Err('PARSE', r.text === undefined ? "document has no 'text'" : "document 'text' must be a string", { file, line: lineNo }));
    return null;
  }
  const meta = r.metadata;
  return {
    id: r.id,
    text: r.text,
    source: typeof r.source === 'string' ? r.source : '',
    metadata: meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {},
    record: r,
  };
}
