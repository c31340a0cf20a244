// Lint issues the host adds while a recipe is typed: outputs, work dirs and inputs that resolve outside the workspace (jobs would refuse them).
import { cpus } from 'node:os';
import { parse } from 'yaml';
import type { LintIssue } from '../../shared/contract/index.js';
import { parseRecipe } from '../../shared/recipe/load.js';
import { RecipeLocator } from '../engine/index/recipe/locate.js';
import { HostError } from './errors.js';
import { confiner, globBase } from './paths.js';

/**
 * One `outside-workspace` error per path of the recipe that `jobs.start` would refuse as FORBIDDEN, at the
 * path's line and columns. A recipe that does not parse gets none here (the engine's lint reports the syntax).
 */
export function outsideWorkspace(root: string, text: string, env: NodeJS.ProcessEnv): LintIssue[] {
  const c = pathsOf(text, env);
  if (c === null) return [];
  const paths: { path: string; at: (string | number)[]; field: string; what: string }[] = [];
  c.streams.forEach((s, i) => {
    if (s.output?.path) paths.push({ path: s.output.path, at: ['streams', i, 'output', 'path'], field: `streams[${i}].output.path`, what: 'writes' });
    (s.documents ?? []).forEach((d, k) => paths.push({ path: globBase(d), at: ['streams', i, 'documents', k], field: `streams[${i}].documents[${k}]`, what: 'reads' }));
  });
  for (const key of ['input', 'output'] as const) {
    const p = c.work_dir?.[key];
    if (p) paths.push({ path: p, at: ['work_dir', key], field: `work_dir.${key}`, what: 'writes' });
  }
  const check = confiner(root);
  const locator = new RecipeLocator(text);
  const out: LintIssue[] = [];
  for (const p of paths) {
    if (/^s3:\/\//i.test(p.path)) continue;
    try {
      check(p.path, p.field);
    } catch (e) {
      if (!(e instanceof HostError)) throw e;
      const at = locator.span(p.at);
      out.push({
        severity: 'error',
        code: 'outside-workspace',
        ...(at ? { line: at.line, column: at.column, endColumn: at.endColumn } : {}),
        message: `${e.message}: the app ${p.what} only inside the workspace (Run is refused; \`assay mix\` in a terminal can)`,
      });
    }
  }
  return out;
}

interface RecipePaths {
  streams: { documents?: string[]; output?: { path?: string } }[];
  work_dir?: { input?: string | null; output?: string | null } | null;
}

/**
 * The recipe's paths, interpolated as a run would see them; while the recipe is still invalid elsewhere (a
 * missing filter, a typo in another field) they come from the YAML as written, so the markers show up at once.
 */
function pathsOf(text: string, env: NodeJS.ProcessEnv): RecipePaths | null {
  const parsed = parseRecipe(text, { env, cpuCount: cpus().length });
  if (parsed.ok) return parsed.config;
  let raw: unknown;
  try {
    raw = parse(text);
  } catch {
    return null;
  }
  const str = (v: unknown): string | undefined => (typeof v === 'string' && !v.includes('${') ? v : undefined);
  const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const streams = Array.isArray(obj(raw).streams) ? (obj(raw).streams as unknown[]) : [];
  const work = obj(obj(raw).work_dir);
  return {
    streams: streams.map((s) => {
      const docs = obj(s).documents;
      const out = str(obj(obj(s).output).path);
      return { documents: (Array.isArray(docs) ? docs : []).map(str).filter((d): d is string => d !== undefined), ...(out !== undefined ? { output: { path: out } } : {}) };
    }),
    work_dir: { input: str(work.input) ?? null, output: str(work.output) ?? null },
  };
}
