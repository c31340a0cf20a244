// A workspace with doors to the outside (symlinks in, an outside folder with a secret), and the escaping values to try in every path-bearing field.
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { writeJsonl } from '../workers/engine/testing.js';
import { TaggerRegistry } from '../workers/engine/tag/registry.js';
import { makeWorkspace } from '../workers/host/testing.js';

export interface Fixture {
  ws: string;
  outside: string;
  /** Text that exists only outside the workspace: it must never appear in an answer, an event or an output. */
  secret: string;
  /** Prefixes that lead from the workspace to `outside`: `../…` (lexical), absolute, and a symlink inside. */
  escapes: { how: string; prefix: string }[];
}

/**
 * `outside/` holds the secret (a text file, documents, a "model", a "tokenizer") and an empty `sentinel/`
 * that every escaping output points at. Inside the workspace: `outlink` → outside, a documents file that
 * is a symlink to outside documents, attribute folders (`linked`, `whitespace_tokenizer_v1`) that are
 * symlinks to the sentinel, a dangling one (`dangling`, into the sentinel) and a loop (`loop`).
 */
export function confineFixture(ws: string, outside: string): Fixture {
  const secret = `SECRET-${Math.random().toString(36).slice(2)}-OUTSIDE`;
  mkdirSync(join(outside, 'sentinel'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${secret}\n`);
  writeJsonl(join(outside, 'documents/leak.jsonl.gz'), [{ id: 'leak-1', text: `the outside text ${secret}`, source: 'web', metadata: {} }]);
  writeFileSync(join(outside, 'tokenizer.json'), JSON.stringify({ secret }));
  makeWorkspace(ws, { files: 1, docs: 20 });
  symlinkSync(outside, join(ws, 'outlink'));
  mkdirSync(join(ws, 'attributes'), { recursive: true });
  symlinkSync(join(outside, 'sentinel'), join(ws, 'attributes/linked'));
  symlinkSync(join(outside, 'sentinel'), join(ws, 'attributes/whitespace_tokenizer_v1'));
  // A dangling link (writing through it would create its outside target) and a link loop.
  symlinkSync(join(outside, 'sentinel/not-yet'), join(ws, 'attributes/dangling'));
  symlinkSync('loop', join(ws, 'attributes/loop'));
  // Unshuffled mix outputs mirror input folders: one that already exists as a symlink out.
  writeJsonl(join(ws, 'documents/sub/part-9.jsonl.gz'), [{ id: 'sub-1', text: 'a document in a sub folder', source: 'web', metadata: {} }]);
  mkdirSync(join(ws, 'output/u/documents'), { recursive: true });
  symlinkSync(join(outside, 'sentinel'), join(ws, 'output/u/documents/sub'));
  mkdirSync(join(ws, 'leaky/documents'), { recursive: true });
  symlinkSync(join(outside, 'documents/leak.jsonl.gz'), join(ws, 'leaky/documents/leak.jsonl.gz'));
  return {
    ws,
    outside,
    secret,
    escapes: [
      { how: 'relative ../', prefix: `../${basename(outside)}` },
      { how: 'absolute', prefix: outside },
      { how: 'symlink inside', prefix: 'outlink' },
    ],
  };
}

/** Every file under `dir` with its content, for before/after comparison. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    try {
      out[rel] = readFileSync(join(dir, rel)).toString('base64');
    } catch {
      out[rel] = '(folder)';
    }
  }
  return out;
}

/** Top-level option keys of each built-in tagger whose schema accepts a string (or strings). */
export function stringOptions(): { tagger: string; key: string }[] {
  const out: { tagger: string; key: string }[] = [];
  for (const spec of new TaggerRegistry().list()) {
    if (!spec.options) continue;
    const js = z.toJSONSchema(spec.options, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
    for (const [key, v] of Object.entries(js.properties ?? {})) if (JSON.stringify(v).includes('"string"')) out.push({ tagger: spec.name, key });
  }
  return out;
}
