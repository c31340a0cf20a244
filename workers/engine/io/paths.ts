// Dolma's path conventions: documents → attributes mapping and mixer output names (spec §1.1, §2.5).
import { join, resolve } from 'node:path';
import { segmentProblem } from '../../../shared/segment.js';
import { AssayError } from '../errors.js';

export { extForCodec } from './codec.js';

const DOCS = '/documents/';

/**
 * The attribute file of `attributeName` for a document file: every `/documents/` becomes
 * `/attributes/<name>/` (Rust `str::replace`, `src/shard.rs:50-55`). Applied to the absolute path:
 * Dolma rewrites the path as given, so a relative `documents/x.jsonl.gz` silently maps to itself
 * (the attribute file *is* the document file); resolving first makes it map as intended.
 */
export function attributePathFor(docPath: string, attributeName: string): string {
  // The name becomes one folder: `../x` or `a/b` would write (or read) somewhere else entirely.
  const bad = segmentProblem(attributeName);
  if (bad !== null) throw new AssayError('CONFIG', `attribute set name ${bad}`, { field: 'attributes' });
  const abs = resolve(docPath);
  if (!abs.includes(DOCS)) {
    throw new AssayError('CONFIG', `cannot locate attributes: the path has no "documents" directory`, { file: docPath });
  }
  return abs.split(DOCS).join(`/attributes/${attributeName}/`);
}

/**
 * Output of one input when the mixer does not pack shards (`shuffle: false`):
 * `{outputDir}/documents/{part of the input path after the last "/documents/"}`; the name and its
 * extension are kept, not recomputed from the output codec (as Dolma).
 */
export function mixerUnshuffledOutputPath(outputDir: string, inputPath: string): string {
  const abs = resolve(inputPath);
  const at = abs.lastIndexOf(DOCS);
  if (at === -1) {
    throw new AssayError('CONFIG', `cannot name the output: the input path has no "documents" directory`, { file: inputPath });
  }
  return join(outputDir, 'documents', abs.slice(at + DOCS.length));
}

/**
 * Name of a packed shard (`shuffle: true`): `{stream}-NNNN.jsonl{ext}` for shards closed early and
 * `{stream}-NNNN.json{ext}` for the stream's final shard — Dolma's quirk, kept for compatibility.
 */
export function shardName(outputDir: string, stream: string, index: number, isLast: boolean, ext: string): string {
  const bad = segmentProblem(stream);
  if (bad !== null) throw new AssayError('CONFIG', `stream name ${bad}`, { field: 'name' });
  return join(outputDir, `${stream}-${String(index).padStart(4, '0')}.${isLast ? 'json' : 'jsonl'}${ext}`);
}
