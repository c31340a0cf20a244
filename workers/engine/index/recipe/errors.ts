// Turns configuration errors found while matching a recipe to the index into located RecipeErrors.
import { AssayError } from '../../errors.js';
import { RecipeError } from '../../mix/config.js';
import type { RecipeLocator } from './locate.js';

/** `streams[0].filter.exclude[2]` → ['streams', 0, 'filter', 'exclude', 2]. */
export function fieldPath(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : (m[1] as string));
  return out;
}

/** A CONFIG error naming a recipe field (and no file) becomes a RecipeError with the field's line and column. */
export function locateConfigError(e: unknown, name: string, locator: RecipeLocator): unknown {
  if (!(e instanceof AssayError) || e.code !== 'CONFIG' || e.field === undefined || e.file !== undefined || e instanceof RecipeError) return e;
  const message = e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
  const at = locator.at(fieldPath(e.field));
  return new RecipeError(name, [{ field: e.field, message, ...(at ?? {}) }]);
}
