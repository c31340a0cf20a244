// Dolma documents → Parquet columns: which columns a set of documents needs, their types, and one row's cells.
import type { SchemaElement } from 'hyparquet-writer';

export type ColumnKind = 'string' | 'int' | 'float' | 'bool' | 'json';

export interface Column {
  name: string;
  kind: ColumnKind;
  /** Where the value comes from: a top-level field or a key of `metadata`. */
  from: { top: string } | { meta: string };
}

/** Dolma's own fields come first, in this order, then other top-level fields, then metadata keys. */
const LEADING = ['id', 'text', 'source', 'added', 'created'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function kindOf(v: unknown): ColumnKind | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? 'int' : 'float';
  return 'json';
}

/** The narrowest kind holding both: ints widen to floats; any other mix (or a nested value) is stored as JSON text. */
function widen(a: ColumnKind | undefined, b: ColumnKind): ColumnKind {
  if (a === undefined || a === b) return b;
  if ((a === 'int' && b === 'float') || (a === 'float' && b === 'int')) return 'float';
  return 'json';
}

/**
 * Collects the columns of documents seen one at a time. `metadata` is flattened one level (`metadata.url` →
 * column `url`); a metadata key that is also a top-level field's name keeps its prefix (column `metadata.id`)
 * so neither is lost; deeper values (objects, arrays) are one JSON column each. A non-object `metadata` is
 * kept whole as a JSON column `metadata`.
 */
export class ColumnCollector {
  readonly #top = new Map<string, ColumnKind | undefined>();
  readonly #meta = new Map<string, ColumnKind | undefined>();

  add(doc: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(doc)) {
      if (k === 'metadata' && (isObject(v) || v === null)) {
        for (const [mk, mv] of Object.entries(v ?? {})) note(this.#meta, mk, mv);
      } else note(this.#top, k, v);
    }
  }

  columns(): Column[] {
    const tops = [...LEADING.filter((k) => this.#top.has(k)), ...[...this.#top.keys()].filter((k) => !LEADING.includes(k))];
    const out: Column[] = tops.map((k) => ({ name: k, kind: this.#top.get(k) ?? 'string', from: { top: k } }));
    for (const [k, kind] of this.#meta) out.push({ name: this.#top.has(k) ? `metadata.${k}` : k, kind: kind ?? 'string', from: { meta: k } });
    return out;
  }
}

function note(map: Map<string, ColumnKind | undefined>, key: string, v: unknown): void {
  const k = kindOf(v);
  const had = map.get(key);
  if (k === null) {
    if (!map.has(key)) map.set(key, undefined);
    return;
  }
  map.set(key, widen(had, k));
}

const ELEMENT: Record<ColumnKind, Omit<SchemaElement, 'name'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  int: { type: 'INT64' },
  float: { type: 'DOUBLE' },
  bool: { type: 'BOOLEAN' },
  json: { type: 'BYTE_ARRAY', converted_type: 'JSON' },
};

export function parquetSchemaOf(columns: Column[]): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.map((c) => ({ name: c.name, ...ELEMENT[c.kind], repetition_type: 'OPTIONAL' as const }))];
}

/** One document's cell for a column, in the form the writer takes (INT64 as bigint, JSON as the value itself). */
export function cellOf(doc: Record<string, unknown>, c: Column): unknown {
  const raw = 'top' in c.from ? doc[c.from.top] : isObject(doc.metadata) ? doc.metadata[c.from.meta] : undefined;
  if (raw === undefined || raw === null) return null;
  if (c.kind === 'int') return BigInt(raw as number);
  return raw;
}
