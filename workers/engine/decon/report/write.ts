// Saving a contamination report: `<attributes folder>/.assay/decon-report.json` atomically, and its path and sha256 into the folder's run manifest.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeconReport } from '../../../../shared/contract/decon.js';
import { writeFileAtomic } from '../../io/index.js';
import { parseManifest } from '../../manifest/read.js';
import { manifestPathFor, type ReportEntry } from '../../manifest/schema.js';

export const REPORT_ROLE = 'decon-report';
const REPORT_REL = '.assay/decon-report.json';

export const reportPathFor = (attributeFolder: string): string => join(attributeFolder, '.assay', 'decon-report.json');

export interface WrittenReport {
  path: string;
  sha256: string;
  size: number;
  /** The run manifest that now lists the report, or null when the folder has none. */
  manifest: string | null;
}

/**
 * Writes the report into `attributeFolder`; when a run manifest describes the folder, lists the report in its
 * `reports` (replacing an earlier entry for the same file), keeping every other field byte for byte as parsed.
 * A manifest the strict loader refuses is left alone and the refusal thrown (it names the file).
 */
export async function writeDeconReport(attributeFolder: string, report: DeconReport): Promise<WrittenReport> {
  const bytes = Buffer.from(JSON.stringify(report, null, 2) + '\n', 'utf8');
  const path = reportPathFor(attributeFolder);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const manifestPath = manifestPathFor(attributeFolder);
  const manifestText = await stat(manifestPath).then((s) => (s.isFile() ? readFile(manifestPath, 'utf8') : null), () => null);
  // Validated before anything is written, so a damaged manifest does not leave a report it does not list.
  if (manifestText !== null) parseManifest(manifestText, manifestPath);
  await writeFileAtomic(path, bytes, { mkdir: true });
  if (manifestText === null) return { path, sha256, size: bytes.length, manifest: null };
  const raw = JSON.parse(manifestText) as Record<string, unknown>;
  const entry: ReportEntry = { path: REPORT_REL, role: REPORT_ROLE, size: bytes.length, sha256 };
  const others = Array.isArray(raw['reports']) ? (raw['reports'] as ReportEntry[]).filter((r) => r.path !== REPORT_REL) : [];
  raw['reports'] = [...others, entry].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const text = JSON.stringify(raw, null, 2) + '\n';
  parseManifest(text, manifestPath);
  await writeFileAtomic(manifestPath, text);
  return { path, sha256, size: bytes.length, manifest: manifestPath };
}
