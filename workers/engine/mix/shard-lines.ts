// The shard's lines read by the C addon: attribute lines (attr-lines.ts) and the kept documents' own lines (doc-lines.ts).
import type { NativeAddon } from '../native-addon.js';
import { AttributeFileReader, MergedAttributesWriter } from './attr-lines.js';
import type { CompiledStream } from './compile.js';
import type { DocumentLineWriter } from './doc-lines.js';

type Doc = Record<string, unknown>;

/** How emitBatch writes kept documents when the addon reads their lines (doc-lines.ts); without one, stringifySorted. */
export interface DocumentOutput {
  /** The batch documents about to be written, in order. */
  prepare(kept: readonly number[]): void;
  write(k: number, doc: Doc, textChanged: boolean): string;
}

export function documentOutput(writer: DocumentLineWriter, lines: readonly string[], attributesText: ((k: number) => string | null) | null): DocumentOutput {
  let at = new Int32Array(0);
  return {
    prepare(kept) {
      at = new Int32Array(lines.length);
      kept.forEach((k, p) => (at[k] = p));
      writer.scan(kept.map((k) => lines[k] as string));
    },
    write(k, doc, textChanged) {
      const attributes = attributesText && Object.hasOwn(doc, 'attributes') ? attributesText(k) : null;
      return writer.write(at[k] as number, doc, attributes, textChanged);
    },
  };
}

/** Attribute lines read by the addon (attr-lines.ts): a reader per attribute file, one writer of the merged members. */
export interface RawAttributes {
  files: AttributeFileReader[];
  writer: MergedAttributesWriter;
}

/**
 * The addon's readers, when the stream's rules and span selectors read only named attributes (so the others need
 * not be parsed); else null, and every attribute line goes through JSON.parse.
 */
export function rawAttributes(addon: NativeAddon, compiled: CompiledStream, files: number): RawAttributes | null {
  const wanted = compiled.attributeKeys;
  if (wanted === null || files === 0) return null;
  return { files: Array.from({ length: files }, () => new AttributeFileReader(addon, wanted)), writer: new MergedAttributesWriter() };
}

/**
 * The members of line i of every attribute file that the stream reads, as `doc.attributes` (Dolma's merge: later
 * files overwrite earlier keys); false, touching nothing, when a reader left a line to JSON.parse or the document has
 * `attributes` of its own (mergeAttributes then does it all).
 */
export function readAttributes(doc: Doc, files: readonly AttributeFileReader[], i: number): boolean {
  const id = doc.id;
  if (typeof id !== 'string' || Object.hasOwn(doc, 'attributes')) return false;
  for (const f of files) if (!f.has(i, id)) return false;
  const attributes: Doc = {};
  for (const f of files) f.addWanted(i, attributes);
  doc.attributes = attributes;
  return true;
}
