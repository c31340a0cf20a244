import { readFileSync } from 'node:fs';
import { TaggerRegistry } from './workers/engine/tag/registry.ts';
import { resolveTaggers } from './workers/engine/tag/runtime.ts';
import { tagSettingsFromText } from './workers/engine/tag/config-file.ts';
const fw = tagSettingsFromText(readFileSync('configs/fineweb.yaml', 'utf8'), 'fineweb.yaml').requests ?? [];
const reg = new TaggerRegistry();
const rs = await resolveTaggers(fw, reg, 'x');
for (let rep = 0; rep < 3; rep++) {
  const row: string[] = [];
  for (const r of rs as any[]) {
    const t = performance.now();
    const tg = await r.spec.create(r.options, { seed: 0, cwd: process.cwd() });
    tg.tag({ id: 'x', text: 'Hello world. This is a test.', source: 's', metadata: { url: 'https://example.com/a' } } as any);
    await tg.close?.();
    row.push(`${r.spec.name} ${(performance.now() - t).toFixed(1)}`);
  }
  console.log(rep, row.join(' | '));
}
