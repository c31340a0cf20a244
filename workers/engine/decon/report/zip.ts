// A documents file and its attribute file read in step, line by line: the pairs, or an error naming the line where they part.
import { AssayError } from '../../errors.js';
import { readJsonRecords, type JsonRecord } from '../../io/index.js';

export interface Pair {
  /** 1-based line in both files. */
  line: number;
  doc: Record<string, unknown>;
  /** The attribute line's `attributes` object ({} when absent). */
  attributes: Record<string, unknown>;
}

/** Yields each document with its attribute line; ids must agree and neither file may end first. */
export async function* zipAttributes(docFile: string, attrFile: string, signal?: AbortSignal): AsyncGenerator<Pair> {
  const attrs = readJsonRecords(attrFile, { ...(signal && { signal }) })[Symbol.asyncIterator]();
  let queue: JsonRecord[] = [];
  let at = 0;
  const nextAttr = async (): Promise<JsonRecord | null> => {
    while (at >= queue.length) {
      const r = await attrs.next();
      if (r.done) return null;
      queue = r.value;
      at = 0;
    }
    return queue[at++]!;
  };
  try {
    let lines = 0;
    for await (const batch of readJsonRecords(docFile, { requireId: true, ...(signal && { signal }) })) {
      for (const rec of batch) {
        lines = rec.line;
        const a = await nextAttr();
        if (a === null) throw new AssayError('PARSE', `the attribute file ends at line ${rec.line - 1}, but the documents file goes on (id ${JSON.stringify(rec.value['id'])}): was it written for another version of the documents?`, { file: attrFile });
        if (a.value['id'] !== rec.value['id']) {
          throw new AssayError('PARSE', `id ${JSON.stringify(a.value['id'])} does not match the document on the same line of ${docFile} (${JSON.stringify(rec.value['id'])})`, { file: attrFile, line: a.line });
        }
        const v = a.value['attributes'];
        yield { line: rec.line, doc: rec.value, attributes: v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {} };
      }
    }
    const extra = await nextAttr();
    if (extra !== null) throw new AssayError('PARSE', `the attribute file has more lines than the documents file (${lines})`, { file: attrFile, line: extra.line });
  } finally {
    await attrs.return?.(undefined);
  }
}
