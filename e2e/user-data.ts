// A user's own data as a new user brings it: plain-text files from this machine (licences, package docs) as Dolma documents.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Text files the machine always has (Debian's licences and package copyright notices), sorted, so runs see the same data. */
function plainTexts(maxPackages: number): { name: string; text: string }[] {
  const texts: { name: string; text: string }[] = [];
  const licences = '/usr/share/common-licenses';
  if (existsSync(licences)) {
    for (const f of readdirSync(licences).sort()) {
      try {
        texts.push({ name: join(licences, f), text: readFileSync(join(licences, f), 'utf8') });
      } catch {
        /* a folder or unreadable file is not a document */
      }
    }
  }
  for (const pkg of readdirSync('/usr/share/doc').sort().slice(0, maxPackages)) {
    const f = join('/usr/share/doc', pkg, 'copyright');
    if (existsSync(f)) texts.push({ name: f, text: readFileSync(f, 'utf8') });
  }
  return texts.filter((t) => t.text.trim().length > 0);
}

/** Writes `<dir>/dataset/documents/part-{0,1}.jsonl.gz` from plain-text files; returns the documents written. */
export function userDataset(dir: string, maxPackages = 120): { id: string; text: string }[] {
  const rows = plainTexts(maxPackages).map((t, i) => ({ id: `doc-${i}`, text: t.text, source: 'usr-share', metadata: { url: `file://${t.name}` } }));
  const half = Math.ceil(rows.length / 2);
  mkdirSync(join(dir, 'dataset/documents'), { recursive: true });
  for (const [i, part] of [rows.slice(0, half), rows.slice(half)].entries()) {
    writeFileSync(join(dir, `dataset/documents/part-${i}.jsonl.gz`), gzipSync(part.map((r) => JSON.stringify(r)).join('\n') + '\n'));
  }
  return rows;
}

/** `npm link` into a prefix of the test's own: `assay` on this PATH without touching the machine's global folders. */
export function linkedEnv(dir: string): NodeJS.ProcessEnv {
  const prefix = join(dir, 'npm-prefix');
  return { ...process.env, npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, BROWSER: 'true' };
}
