// Per-workspace app settings (`.assay/settings.json`): what the user allowed, e.g. which environment variables recipes may read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceSettings } from '../../shared/contract/index.js';
import { writeFileAtomic } from '../engine/io/index.js';

const DEFAULTS: WorkspaceSettings = { envAllowList: [] };

export const settingsFile = (root: string): string => join(root, '.assay', 'settings.json');

/** The saved settings; defaults when the file is missing or unreadable (a broken file never blocks the app). */
export function readSettings(root: string): WorkspaceSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(settingsFile(root), 'utf8'));
  } catch {
    return { ...DEFAULTS };
  }
  const list = (raw as { envAllowList?: unknown } | null)?.envAllowList;
  const names = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(x)) : [];
  return { envAllowList: [...new Set(names)].sort() };
}

export async function writeSettings(root: string, s: WorkspaceSettings): Promise<WorkspaceSettings> {
  const clean: WorkspaceSettings = { envAllowList: [...new Set(s.envAllowList)].sort() };
  await writeFileAtomic(settingsFile(root), `${JSON.stringify(clean, null, 2)}\n`, { mkdir: true });
  return clean;
}
