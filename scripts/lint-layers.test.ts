// The layer rules of DESIGN.md §2 really fire: value imports across layers fail, type imports pass.
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../workers/engine/testing.js';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('layer import rules', () => {
  it('shared/ may not import node built-ins, but may import their types', async () => {
    expect(await problems('shared/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n")).toHaveLength(1);
    expect(await problems('shared/probe.ts', "import type { Stats } from 'node:fs';\nexport type S = Stats;\n")).toHaveLength(0);
  });
  it('the engine may not import electron or UI packages', async () => {
    expect(await problems('workers/engine/probe.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await problems('workers/engine/probe.ts', "import React from 'react';\nexport const r = React;\n")).toHaveLength(1);
    expect(await problems('workers/engine/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n")).toHaveLength(0);
  });
  it('the renderer may not import node built-ins or the engine', async () => {
    expect(await problems('renderer/probe.ts', "import { gzipSync } from 'node:zlib';\nexport const g = gzipSync;\n")).toHaveLength(1);
    expect(await problems('renderer/probe.ts', "import { runMix } from '../workers/engine/mix/mixer.js';\nexport const m = runMix;\n")).toHaveLength(1);
  });
  it('main/ may not import the renderer or React', async () => {
    expect(await problems('main/probe.ts', "import { createRoot } from 'react-dom/client';\nexport const c = createRoot;\n")).toHaveLength(1);
  });
});
