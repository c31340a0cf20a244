// The bounded text scan behind `locate --contains`: input documents whose text holds a substring, with progress.
import { stat } from 'node:fs/promises';
import { compressedDeltas, readLineBatches } from '../io/index.js';

/** The forms a substring takes inside a JSON line: as is, JSON-escaped, and escaped to ASCII (Python's default). */
function encodings(needle: string): string[] {
  const json = JSON.stringify(needle).slice(1, -1);
  const ascii = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [...new Set([needle, json, ascii])];
}

/**
 * Lines are parsed only when their raw bytes could hold the substring (cheap `includes` first), then the parsed
 * `text` decides. Stops after `limit` matches. Progress is in compressed bytes of the files, as stored.
 */
export async function scanTexts(
  files: readonly string[],
  needle: string,
  limit: number,
  opts: { signal?: AbortSignal; onProgress?: (p: { done: number; total: number }) => void },
): Promise<{ file: string; line: number }[]> {
  const forms = encodings(needle);
  const sizes = await Promise.all(files.map((f) => stat(f).then((s) => s.size, () => 0)));
  const total = sizes.reduce((a, b) => a + b, 0);
  let done = 0;
  const out: { file: string; line: number }[] = [];
  for (const file of files) {
    const reader = readLineBatches(file, {
      signal: opts.signal,
      onProgress: compressedDeltas((d) => {
        done += d.compressedBytes;
        opts.onProgress?.({ done, total });
      }),
    });
    for await (const b of reader) {
      b.lines.forEach((line, k) => {
        if (out.length >= limit || !forms.some((f) => line.includes(f))) return;
        let text: unknown;
        try {
          text = (JSON.parse(line) as { text?: unknown }).text;
        } catch {
          return; // a bad line the mixer skipped (--skip-bad-lines) has no ledger row
        }
        if (typeof text === 'string' && text.includes(needle)) out.push({ file, line: b.firstLine + k });
      });
      if (out.length >= limit) return out;
    }
  }
  return out;
}
