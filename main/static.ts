// Static files of the built renderer: no traversal (encoded or not, symlinks included), explicit content types, an error page when unbuilt.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, isAbsolute, join, relative } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export type StaticLookup = { ok: true; file: string; type: string; size: number } | { ok: false; status: 400 | 403 | 404 };

/** Maps a URL path to a file under `dir`; '/' is index.html. */
export function lookupStatic(dir: string, pathname: string): StaticLookup {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 400 };
  // Refuse any dot-dot segment outright rather than normalising it away.
  if (decoded.split('/').some((s) => s === '..')) return { ok: false, status: 403 };
  const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const type = TYPES[extname(rel).toLowerCase()];
  if (!type) return { ok: false, status: 404 };
  let file: string;
  let realDir: string;
  try {
    realDir = realpathSync(dir);
    file = realpathSync(join(realDir, rel));
  } catch {
    return { ok: false, status: 404 };
  }
  const r = relative(realDir, file);
  if (r.startsWith('..') || isAbsolute(r)) return { ok: false, status: 403 };
  const st = statSync(file);
  if (!st.isFile()) return { ok: false, status: 404 };
  return { ok: true, file, type, size: st.size };
}

export function sendFile(res: ServerResponse, found: Extract<StaticLookup, { ok: true }>, head: boolean): void {
  res.writeHead(200, { 'Content-Type': found.type, 'Content-Length': String(found.size) });
  if (head) res.end();
  else createReadStream(found.file).on('error', () => res.destroy()).pipe(res);
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page shown when dist/renderer has not been built: what is missing and the command that builds it. */
export function notBuiltPage(dir: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Assay — renderer not built</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:44em;margin:4em auto;padding:0 1em;color:#222}code,pre{background:#f3f3f3;padding:.1em .3em;border-radius:3px}pre{padding:.8em}</style>
</head><body>
<h1>The Assay app is not built yet</h1>
<p>The server is running and the engine is ready, but the web app it serves was not found in <code>${escapeHtml(dir)}</code>.</p>
<p>Build it from the repository root, then reload this page:</p>
<pre>npx vite build --config renderer/vite.config.ts</pre>
<p>(<code>npm start</code> builds everything it needs by itself.)</p>
</body></html>
`;
}
