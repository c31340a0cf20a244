// Where the deduper writes: `/<document_dir>/` → `/attributes/<name>/` in each document path (spec §1.1).
import { resolve, sep } from 'node:path';
import { segmentProblem } from '../../../../shared/segment.js';
import { AssayError } from '../../errors.js';
import { compileComponent } from '../../io/glob-pattern.js';

/**
 * Dolma's CLI pre-check (`cli/deduper.py:194-201`): every documents pattern needs a path component
 * that matches `document_dir` (as a glob component, so a `doc*` directory passes for `documents`).
 */
export function checkDocumentDir(patterns: readonly string[], documentDir: string): void {
  for (const [i, pattern] of patterns.entries()) {
    const parts = pattern.split('/').filter((c) => c !== '' && c !== '**');
    if (!parts.some((c) => compileComponent(c, pattern).test(documentDir))) {
      throw new AssayError(
        'CONFIG',
        `${JSON.stringify(pattern)} has no "${documentDir}" path component, so its attributes have nowhere to go; ` +
          'put the files under a documents/ directory or set dedupe.document_dir to the directory that holds them',
        { field: `documents[${i}]` },
      );
    }
  }
}

/** The attribute file of a (resolved) document path; every `/<document_dir>/` is replaced, as Rust's `str::replace`. */
export function dedupeOutputPath(input: string, documentDir: string, name: string): string {
  // Both become one folder name; the schemas refuse worse, this guards callers that skip them.
  for (const [what, v] of [['document_dir', documentDir], ['name', name]] as const) {
    const bad = segmentProblem(v);
    if (bad !== null) throw new AssayError('CONFIG', `${what} ${bad}`, { field: what });
  }
  const abs = resolve(input);
  const needle = `${sep}${documentDir}${sep}`;
  if (!abs.includes(needle)) {
    throw new AssayError('CONFIG', `the path has no "${documentDir}" directory, so its attributes have nowhere to go (dedupe.document_dir)`, { file: input });
  }
  return abs.split(needle).join(`${sep}attributes${sep}${name}${sep}`);
}
