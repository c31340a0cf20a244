// Mix one shard: stream its document files with their attribute files in lockstep, filter, edit, write.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { StreamConfig } from '../../../shared/recipe/schema.js';
import { AssayError } from '../errors.js';
import { AtomicWriter, attributePathFor, compressedDeltas, readLineBatches, writeLines, type Codec } from '../io/index.js';
import { countSource } from '../manifest/write.js';
import { DocEvalError, KEEP, type CompiledStream } from './compile.js';
import { LineCursor, readAhead, SKIPPED } from './cursor.js';
import type { Json } from './filters/types.js';
import { checkAttributeLine, checkDocumentLine, mergeOwnedAttributeSets, trimmedUtf8Length } from './fate.js';
import { stringifySorted } from './json.js';
import { nativeAddon } from '../native-addon.js';
import { DocumentLineWriter } from './doc-lines.js';
import { documentOutput, rawAttributes, readAttributes, type DocumentOutput } from './shard-lines.js';
import { applyReplacements } from './spans.js';
import { idText, LedgerPart } from '../ledger/part.js';
import { sampled } from './sample.js';

export interface ShardTask {
  stream: number;
  /** Shard number within its stream (0-based). */
  index: number;
  inputs: string[];
  output: string;
}

export interface ShardStats {
  output: string;
  inputs: string[];
  docsRead: number;
  kept: number;
  /** dropped[r] = documents dropped by reason r (see CompiledStream.reasons). */
  dropped: number[];
  /** Uncompressed bytes of document lines read / of output lines written. */
  bytesIn: number;
  bytesOut: number;
  /** Lines skipped under --skip-bad-lines, with the first few locations. */
  badLines: number;
  badLineSamples: string[];
  /** For the run manifest: each file read (sha256 of its stored bytes, hashed while read), and the shard as stored. */
  digests: { path: string; role: string; sha256: string }[];
  sha256: string;
  bytesStored: number;
  /** Kept documents per `source` with estimated tokens of their output texts (⌈UTF-8 bytes / 4⌉ each). */
  bySource: Record<string, { docs: number; tokens: number }>;
  /** The ledger part this shard wrote (ShardOptions.ledgerPart), null without one. */
  ledgerPart: string | null;
}

export interface ShardOptions {
  /** Where to write this shard's ledger rows (a part the run merges into `.assay/ledger.sqlite`); none when absent. */
  ledgerPart?: string;
  /** The part already holds earlier shards of this run (mixed before this one in this process): add to it. */
  ledgerAppend?: boolean;
  inputCodec?: Codec;
  outputCodec?: Codec;
  skipBadLines?: boolean;
  allowMissingAttributes?: boolean;
  signal?: AbortSignal;
  /** Progress deltas: compressed bytes consumed, uncompressed bytes, documents. */
  onProgress?: (delta: { compressedBytes: number; bytes: number; docs: number }) => void;
  log?: (message: string) => void;
}

/** Lines per batch read from each file (the ledger records a batch's dropped documents, then its kept ones). */
const BATCH_LINES = 512;
/**
 * Documents parsed, decided and written at a time within a batch. What is parsed stays alive across the
 * young-generation collections it spans: with all 512 at once, scavenge pauses on the small-document bench
 * summed to 0.42–0.52 s; with a quarter, 0.22–0.26 s.
 */
const SUB_BATCH = 128;
const MAX_SAMPLES = 20;

export async function processShard(
  task: ShardTask,
  stream: StreamConfig,
  compiled: CompiledStream,
  opts: ShardOptions = {},
): Promise<ShardStats> {
  const stats: ShardStats = {
    output: task.output,
    inputs: task.inputs,
    docsRead: 0,
    kept: 0,
    dropped: compiled.reasons.map(() => 0),
    bytesIn: 0,
    bytesOut: 0,
    badLines: 0,
    badLineSamples: [],
    digests: [],
    sha256: '',
    bytesStored: 0,
    bySource: {},
    ledgerPart: opts.ledgerPart ?? null,
  };
  const writer = await AtomicWriter.open(task.output, { codec: opts.outputCodec, mkdir: true });
  const ledger = opts.ledgerPart === undefined ? null : LedgerPart.open(opts.ledgerPart, task.stream, opts.ledgerAppend);
  try {
    for (const input of task.inputs) await mixFile(input, stream, compiled, writer, stats, opts, ledger);
    // The mixer publishes all shards together once every shard succeeded (see runMix).
    await writer.commit({ deferRename: true });
  } catch (e) {
    await writer.abort().catch(() => undefined);
    throw e;
  } finally {
    ledger?.close();
  }
  stats.bytesOut = writer.bytesIn;
  stats.sha256 = writer.sha256;
  stats.bytesStored = writer.bytesOut;
  return stats;
}

async function openAttributeCursors(
  input: string,
  stream: StreamConfig,
  opts: ShardOptions,
  onBadLine: ((e: AssayError) => void) | undefined,
  digests: ShardStats['digests'],
): Promise<LineCursor[]> {
  const cursors: LineCursor[] = [];
  for (const name of stream.attributes) {
    const path = attributePathFor(resolve(input), name);
    const exists = await stat(path).then((s) => s.isFile(), () => false);
    if (!exists) {
      if (opts.allowMissingAttributes) {
        opts.log?.(`warning: ${input}: no attribute file ${path} for attribute set '${name}'; continuing without it`);
        continue;
      }
      throw new AssayError('MISMATCH', `attribute set '${name}' has no file for this documents file (expected ${path})`, { file: input });
    }
    const onDigest = (d: { sha256: string }): number => digests.push({ path, role: `attributes/${name}`, sha256: d.sha256 });
    const lines = readLineBatches(path, { codec: opts.inputCodec, signal: opts.signal, batchLines: BATCH_LINES, onBadLine, onDigest });
    cursors.push(new LineCursor(path, onBadLine ? lines : readAhead(lines)));
  }
  return cursors;
}

async function mixFile(
  input: string,
  stream: StreamConfig,
  compiled: CompiledStream,
  writer: AtomicWriter,
  stats: ShardStats,
  opts: ShardOptions,
  ledger: LedgerPart | null,
): Promise<void> {
  const bad = (err: AssayError): void => {
    if (!opts.skipBadLines) throw err;
    stats.badLines++;
    if (stats.badLineSamples.length < MAX_SAMPLES) stats.badLineSamples.push(err.message);
    opts.log?.(`skipped bad line: ${err.message}`);
  };
  // Under --skip-bad-lines the readers drop undecodable lines themselves; numbering keeps files aligned.
  const onBadLine = opts.skipBadLines ? bad : undefined;
  const cursors = await openAttributeCursors(input, stream, opts, onBadLine, stats.digests);
  // With the addon, lines are read in C where they can be (shard-lines.ts); JSON.parse reads the others.
  const addon = nativeAddon();
  const raw = addon && rawAttributes(addon, compiled, cursors.length);
  const docWriter = addon && new DocumentLineWriter(addon);
  const provenanceName = basename(input);
  let nextLine = 1;
  let lastBadDocLine = 0;
  const onBadDocLine = onBadLine && ((e: AssayError): void => {
    lastBadDocLine = Math.max(lastBadDocLine, e.line ?? 0);
    onBadLine(e);
  });
  try {
    const batches = readLineBatches(input, {
      codec: opts.inputCodec,
      signal: opts.signal,
      batchLines: BATCH_LINES,
      onBadLine: onBadDocLine,
      onProgress: compressedDeltas(opts.onProgress),
      onDigest: (d) => stats.digests.push({ path: input, role: 'documents', sha256: d.sha256 }),
    });
    for await (const batch of onBadDocLine ? batches : readAhead(batches)) {
      // Read ahead, the readers may have finished before a cancel: they would not see it.
      if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'mixing cancelled', { file: input });
      const n = batch.lines.length;
      if (batch.firstLine > nextLine) {
        // The documents reader skipped lines: consume the same lines from every attribute file.
        const gap = batch.firstLine - nextLine;
        for (const c of cursors) await c.take(gap);
      }
      nextLine = batch.firstLine + n;
      const attrLines = await Promise.all(cursors.map((c) => c.take(n)));
      if (raw) raw.files.forEach((f, a) => f.scan(attrLines[a] as (string | null)[]));
      // Report problems in line order: lines before a short attribute file's end are checked first.
      const shortAt = attrLines.reduce((m, lines) => Math.min(m, lines.length), n);
      const shortError = (): AssayError => {
        const a = attrLines.findIndex((lines) => lines.length === shortAt);
        const cur = cursors[a] as LineCursor;
        return new AssayError(
          'MISMATCH',
          `attributes file ${cur.file} ends after line ${cur.taken} but the documents file continues (line ${batch.firstLine + shortAt})`,
          { file: input, line: batch.firstLine + shortAt },
        );
      };
      for (let from = 0; from < n; from += SUB_BATCH) {
        const to = Math.min(n, from + SUB_BATCH);
        const docs: Json[] = [];
        const lineNos: number[] = [];
        /** Per document: its line in the batch when the attribute files' readers read its lines, else -1. */
        const rawAt: number[] = [];
        const docLines: string[] = [];
        let batchBytes = 0;
        for (let i = from; i < to; i++) {
          if (i === shortAt) throw shortError();
          const lineNo = batch.firstLine + i;
          batchBytes += batch.bytes[i] ?? 0;
          const doc = parseDocument(batch.lines[i] as string, input, lineNo, bad);
          if (doc === null) continue;
          const read = raw !== null && readAttributes(doc, raw.files, i);
          if (!read && !mergeAttributes(doc, cursors, attrLines, i, input, lineNo, bad)) continue;
          docs.push(doc as Json);
          lineNos.push(lineNo);
          rawAt.push(read ? i : -1);
          docLines.push(batch.lines[i] as string);
        }
        stats.docsRead += docs.length;
        stats.bytesIn += batchBytes;
        opts.onProgress?.({ compressedBytes: 0, bytes: batchBytes, docs: to - from });
        const output = docWriter && documentOutput(docWriter, docLines, raw && ((k) => (rawAt[k] !== -1 ? raw.writer.text(raw.files, rawAt[k] as number) : null)));
        await writeLines(writer, emitBatch(docs, lineNos, compiled, stream, stats, input, provenanceName, ledger, output));
      }
      // The kept documents' rows follow all of the batch's dropped ones, as when a batch was decided at once.
      ledger?.flushLater();
    }
    // Skipped lines at the very end of the documents file have attribute lines too.
    if (lastBadDocLine >= nextLine) for (const c of cursors) await c.take(lastBadDocLine - nextLine + 1);
    for (const cur of cursors) {
      if (!(await cur.atEnd())) {
        throw new AssayError('MISMATCH', `attributes file ${cur.file} has more lines than the documents file (which ends at line ${cur.taken})`, {
          file: input,
          line: cur.taken + 1,
        });
      }
    }
  } finally {
    await Promise.all(cursors.map((c) => c.close()));
  }
}

type Doc = Record<string, unknown>;

function parseDocument(line: string, file: string, lineNo: number, bad: (e: AssayError) => void): Doc | null {
  const doc = checkDocumentLine(line, file, lineNo);
  if (doc instanceof AssayError) {
    bad(doc);
    return null;
  }
  return doc;
}

/** Merges this line of every attribute file into `doc` (fate.ts mergeOwnedAttributeSets: the parsed sets are ours); false when a line is bad (reported). */
function mergeAttributes(
  doc: Doc,
  cursors: readonly LineCursor[],
  attrLines: readonly (string | null)[][],
  i: number,
  input: string,
  lineNo: number,
  bad: (e: AssayError) => void,
): boolean {
  if (cursors.length === 0) return true;
  const sets: Doc[] = [];
  for (let a = 0; a < cursors.length; a++) {
    const line = (attrLines[a] as (string | null)[])[i];
    if (line === SKIPPED || line === undefined) return false; // already reported by the reader
    const attrs = checkAttributeLine(line, doc.id as Json, input, (cursors[a] as LineCursor).file, lineNo);
    if (attrs instanceof AssayError) {
      if (attrs.code === 'MISMATCH') throw attrs;
      bad(attrs);
      return false;
    }
    sets.push(attrs);
  }
  mergeOwnedAttributeSets(doc, sets);
  return true;
}

function emitBatch(
  docs: Json[],
  lineNos: number[],
  compiled: CompiledStream,
  stream: StreamConfig,
  stats: ShardStats,
  input: string,
  provenanceName: string,
  /** Gets one row per document when the run keeps a ledger: dropped ones at once, the kept loop's held back (addLater). */
  ledger: LedgerPart | null,
  /** Writes kept documents from their lines (else stringifySorted). */
  output: DocumentOutput | null = null,
): string[] {
  // Evaluators name a batch position; turn it into the document's file:line.
  const located = <T>(positions: readonly number[], f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof DocEvalError) throw new AssayError('FILTER', e.message, { file: input, line: lineNos[positions[e.index] ?? e.index], cause: e });
      throw e;
    }
  };
  const all = docs.map((_, i) => i);
  const fate = located(all, () => compiled.decide(docs));
  const keptIdx: number[] = [];
  fate.forEach((f, i) => {
    if (f === KEEP) return void keptIdx.push(i);
    stats.dropped[f]!++;
    const d = docs[i] as Doc;
    ledger?.add(d.id, d.source, d.metadata, d.text, input, lineNos[i] as number, f, 0, null, null);
  });
  const spans =
    compiled.hasSpanReplacement && keptIdx.length > 0 ? located(keptIdx, () => compiled.spans(keptIdx.map((i) => docs[i] as Json))) : null;
  const minLen = stream.output.min_text_length;
  const discard = stream.output.discard_fields;
  const sampling = compiled.sampling;
  const out: string[] = [];
  // Code points replaced in the current document, summed by one callback made per batch, not one per document.
  let replaced = 0;
  const count = ledger ? (from: number, to: number): void => void (replaced += to - from) : undefined;
  output?.prepare(keptIdx);
  keptIdx.forEach((docIndex, k) => {
    const doc = docs[docIndex] as Doc;
    const reps = spans?.[k];
    // What the ledger records of the document as read, before replacement and discard_fields change it.
    const id0 = doc.id;
    const source0 = doc.source;
    const meta0 = doc.metadata;
    const text0 = doc.text;
    const line = lineNos[docIndex] as number;
    replaced = 0;
    if (reps && reps.length > 0) {
      if (typeof doc.text !== 'string') {
        throw new AssayError('PARSE', "span replacement needs a string 'text' field", { file: input, line: lineNos[docIndex] });
      }
      doc.text = applyReplacements(doc.text, reps, count);
    }
    for (const f of discard) delete doc[f];
    if (minLen > 0) {
      if (typeof doc.text !== 'string') {
        throw new AssayError('PARSE', "min_text_length needs a string 'text' field", { file: input, line: lineNos[docIndex] });
      }
      if (trimmedUtf8Length(doc.text) < minLen) {
        stats.dropped[compiled.minTextLengthReason]!++;
        ledger?.addLater(id0, source0, meta0, text0, input, line, compiled.minTextLengthReason, replaced, null, null);
        return;
      }
    }
    const source = typeof source0 === 'string' ? source0 : '';
    if (sampling.samples && !sampled(sampling, idText(id0), source)) {
      stats.dropped[compiled.sampleReason]!++;
      ledger?.addLater(id0, source0, meta0, text0, input, line, compiled.sampleReason, replaced, null, null);
      return;
    }
    // Provenance is added after discard_fields, as Dolma does, so it survives discarding `metadata`.
    const meta = doc.metadata;
    const metadata = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Doc) : {};
    metadata.provenance = `${provenanceName}:${lineNos[docIndex]}`;
    doc.metadata = metadata;
    const written = output ? output.write(docIndex, doc, reps !== undefined && reps.length > 0) : stringifySorted(doc);
    // assay.repeat: the same line again, so a later tokens run sees every copy (the ledger names the first).
    const copies = sampling.repeats ? sampling.repeat(source) : 1;
    for (let c = 0; c < copies; c++) out.push(written);
    ledger?.addLater(id0, source0, meta0, text0, input, line, KEEP, replaced, stats.output, stats.kept + 1, copies);
    stats.kept += copies;
    const tokens = typeof doc.text === 'string' ? Math.ceil(Buffer.byteLength(doc.text, 'utf8') / 4) : 0;
    for (let c = 0; c < copies; c++) countSource(stats.bySource, doc.source, tokens);
  });
  return out;
}
