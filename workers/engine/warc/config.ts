// `assay warc -c warc.yaml`: Dolma's option names where `dolma warc` has one (documents, destination, processes, source_name, ignore_existing).
import { parse } from 'yaml';
import { z } from 'zod';
import { AssayError } from '../errors.js';
import type { WarcOptions } from './index.js';

const strings = z.union([z.string().min(1).transform((s) => [s]), z.array(z.string().min(1))]);

const schema = z
  .object({
    documents: strings.optional(),
    // Dolma's destination is a list (one per documents entry); Assay writes one dataset root.
    destination: z.union([z.string().min(1), z.array(z.string().min(1)).length(1).transform((a) => a[0] as string)]).optional(),
    processes: z.number().int().min(1).optional(),
    source_name: z.string().min(1).optional(),
    ignore_existing: z.boolean().optional(),
    extractor: z.string().min(1).optional(),
    dump: z.string().min(1).nullable().optional(),
    url_filter: z.union([z.literal(false), z.record(z.string(), z.unknown())]).optional(),
    languages: strings.optional(),
    language_id: z.boolean().optional(),
    language_threshold: z.number().min(0).max(1).optional(),
    lid_model: z.string().min(1).optional(),
    min_text_length: z.number().int().min(0).optional(),
    max_html_bytes: z.number().int().min(1).optional(),
  })
  .strict();

export type WarcConfig = Partial<Omit<WarcOptions, 'cwd' | 'signal' | 'onProgress' | 'log'>>;

export function warcOptionsFromText(text: string, file: string): WarcConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    throw new AssayError('CONFIG', `not YAML/JSON: ${(e as Error).message}`, { file });
  }
  const r = schema.safeParse(raw ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new AssayError('CONFIG', `${issue?.path.join('.') || 'config'}: ${issue?.message ?? 'invalid'}`, { file });
  }
  const c = r.data;
  return {
    documents: c.documents, destination: c.destination, processes: c.processes, sourceName: c.source_name, ignoreExisting: c.ignore_existing,
    extractor: c.extractor, dump: c.dump, urlFilter: c.url_filter, languages: c.languages, languageId: c.language_id,
    languageThreshold: c.language_threshold, lidModel: c.lid_model, minTextLength: c.min_text_length, maxHtmlBytes: c.max_html_bytes,
  };
}
