// The starter library: shipped presets, a recipe from the attribute catalogue, and one config per job kind — for `assay init` and the app.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigTemplate } from '../../../shared/contract/workspace.js';
import { AssayError } from '../errors.js';
import { renderCatalogueRecipe } from './catalogue.js';
import { renderDecon, renderDedupe, renderMinhash, renderTag, renderTokens } from './jobs.js';
import type { TemplateContext } from './layout.js';
import { renderPreset } from './presets.js';

export type { TemplateContext } from './layout.js';

interface Template extends ConfigTemplate {
  /** Where the starter goes, relative to the base folder (the CLI's working directory, the app's workspace). */
  file: string;
  render(ctx: TemplateContext): string;
}

const TEMPLATES: Template[] = [
  {
    id: 'fineweb', kind: 'mix', file: 'configs/fineweb.yaml', title: "FineWeb's filter chain",
    description: "DataTrove's URL, language, Gopher, C4 and FineWeb quality filters with C4's line edits and PII redaction, tagger preset included (tag, then mix)",
    render: (ctx) => renderPreset('fineweb.yaml', ctx),
  },
  {
    id: 'fineweb-tunable', kind: 'mix', file: 'configs/fineweb-tunable.yaml', title: "FineWeb's filter chain, every threshold in the recipe",
    description: "the same taggers and kept documents as FineWeb's chain, with one rule per DataTrove sub-rule on its value: a histogram drag tunes it without re-tagging",
    render: (ctx) => renderPreset('fineweb-tunable.yaml', ctx),
  },
  {
    id: 'dolma-c4', kind: 'mix', file: 'configs/dolma-c4.yaml', title: "Dolma's C4 recipe",
    description: "Dolma's c4.yaml mixing rules (Gopher + PII), tagger preset included (tag, then mix)",
    render: (ctx) => renderPreset('dolma-c4.yaml', ctx),
  },
  {
    id: 'starter', kind: 'mix', file: 'configs/starter.yaml', title: "Recipe from this workspace's attributes",
    description: 'one labelled exclude rule per numeric attribute found (thresholds from its distribution), PII-like spans redacted',
    render: renderCatalogueRecipe,
  },
  { id: 'tag', kind: 'tag', file: 'configs/tag.yaml', title: 'Tag config', description: "Dolma's tag config: length, whitespace words, Gopher and PII taggers in one read", render: renderTag },
  { id: 'dedupe', kind: 'dedupe', file: 'configs/dedupe.yaml', title: 'Paragraph dedupe', description: "Dolma's bloom-filter paragraph dedupe", render: renderDedupe },
  { id: 'minhash', kind: 'minhash', file: 'configs/minhash.yaml', title: 'MinHash near-duplicates', description: "FineWeb's MinHash (5-grams, 14×8)", render: renderMinhash },
  { id: 'tokens', kind: 'tokens', file: 'configs/tokens.yaml', title: 'Tokenize (GPT-2)', description: 'OLMo memmaps with the built-in GPT-2 tokenizer', render: renderTokens },
  { id: 'decon', kind: 'decon', file: 'configs/decon.yaml', title: 'Decontamination', description: 'eval-set 13-gram overlap as attributes (point it at your eval files)', render: renderDecon },
];

export function listTemplates(): ConfigTemplate[] {
  return TEMPLATES.map(({ id, kind, title, description }) => ({ id, kind, title, description }));
}

function find(id: string): Template {
  const t = TEMPLATES.find((x) => x.id === id);
  if (t === undefined) throw new AssayError('CONFIG', `no template '${id}' (templates: ${TEMPLATES.map((x) => x.id).join(', ')})`, { field: 'id' });
  return t;
}

/** The starter's text for this workspace, and a path for it under `ctx.base` that no file takes yet (`-2`, `-3`… when taken). */
export function renderTemplate(id: string, ctx: TemplateContext): { id: string; text: string; suggestedPath: string; defaultPath: string } {
  const t = find(id);
  let path = t.file;
  for (let n = 2; existsSync(join(ctx.base, path)); n++) path = t.file.replace(/\.yaml$/, `-${n}.yaml`);
  return { id, text: t.render(ctx), suggestedPath: path, defaultPath: t.file };
}
