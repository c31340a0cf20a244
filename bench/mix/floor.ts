// The I/O floor the mixer is judged against: gunzip → split lines → JSON.parse → JSON.stringify → gzip, nothing else.
import { fork } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip, createGzip } from 'node:zlib';
import { poolV8Flags } from '../../workers/engine/jobs/v8-flags.js';

/** Returns uncompressed bytes read. Same gzip level as the mixer's default output (Dolma: 6). */
export async function floorFile(input: string, output: string, level = 6): Promise<number> {
  let bytes = 0;
  let rest: Buffer = Buffer.alloc(0);
  const gzip = createGzip({ level });
  const done = pipeline(gzip, createWriteStream(output));
  const src = createReadStream(input).pipe(createGunzip());
  let pending: string[] = [];
  let pendingLen = 0;
  for await (const chunk of src as AsyncIterable<Buffer>) {
    const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    let nl: number;
    while ((nl = buf.indexOf(10, start)) !== -1) {
      const line = buf.toString('utf8', start, nl);
      bytes += nl - start;
      const out = JSON.stringify(JSON.parse(line) as unknown) + '\n';
      pending.push(out);
      pendingLen += out.length;
      start = nl + 1;
    }
    rest = buf.subarray(start);
    if (pendingLen > 65536) {
      if (!gzip.write(pending.join(''))) await new Promise((r) => gzip.once('drain', r));
      pending = [];
      pendingLen = 0;
    }
  }
  if (pending.length > 0) gzip.write(pending.join(''));
  gzip.end();
  await done;
  return bytes;
}

export async function floorSerial(files: readonly string[], outDir: string, level = 6): Promise<number> {
  let bytes = 0;
  for (const f of files) bytes += await floorFile(f, join(outDir, `floor-${basename(f)}`), level);
  return bytes;
}

/** The floor fanned out the way the mixer fans out: one child process per worker (with the V8 flags the mixer's pool gives its workers), whole files from a queue. */
export function floorParallel(files: readonly string[], outDir: string, processes: number, level = 6): Promise<number> {
  const self = fileURLToPath(import.meta.url);
  let next = 0;
  let bytes = 0;
  let live = processes;
  return new Promise((resolve, reject) => {
    for (let w = 0; w < processes; w++) {
      const child = fork(self, ['--floor-worker'], { execArgv: [...poolV8Flags(processes), '--import', 'tsx'] });
      const feed = (): void => {
        if (next < files.length) child.send({ file: files[next++], outDir, level });
        else child.disconnect();
      };
      child.on('message', (m: { bytes: number }) => {
        bytes += m.bytes;
        feed();
      });
      child.on('exit', (code) => {
        if (code !== 0) reject(new Error(`floor worker exited with ${code}`));
        else if (--live === 0) resolve(bytes);
      });
      feed();
    }
  });
}

if (process.argv.includes('--floor-worker')) {
  process.on('message', (m: { file: string; outDir: string; level: number }) => {
    void floorFile(m.file, join(m.outDir, `floor-${basename(m.file)}`), m.level).then((bytes) => process.send?.({ bytes }));
  });
}
