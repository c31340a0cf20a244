// `templates.list` / `templates.render`: the engine's starter library, rendered for this workspace (paths relative to its root, where jobs run).
import type { ConfigTemplate } from '../../shared/contract/index.js';
import { AssayError } from '../engine/errors.js';
import { listTemplates, renderTemplate } from '../engine/templates/index.js';
import { HostError } from './errors.js';
import type { IndexService } from './index-service.js';

export function templateList(): ConfigTemplate[] {
  return listTemplates();
}

export async function templateRender(root: string, index: IndexService, id: string): Promise<{ id: string; text: string; suggestedPath: string }> {
  // The catalogue recipe is built from the index's attributes; without an index it is a recipe with no rules yet.
  const catalogue = index.built ? (await index.info()).attributes : [];
  try {
    const r = renderTemplate(id, { workspace: root, base: root, catalogue });
    return { id: r.id, text: r.text, suggestedPath: r.suggestedPath };
  } catch (e) {
    if (e instanceof AssayError && e.field === 'id') throw new HostError('NOT_FOUND', `id: ${e.message}`, 'id');
    throw e;
  }
}
