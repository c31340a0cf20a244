// symbol_lines_formatter: DataTrove's SymbolLinesFormatter (datatrove-spec §10.2) as line-removal spans.
import { z } from 'zod';
import { PUNCTUATION_SET } from '../../../text/charsets.js';
import type { TaggerSpec, TagSpan } from '../../types.js';
import { lineEdits, type LineUnit } from './line-edits.js';
import { forEachLine, stripRange } from './lines.js';

export const symbolLinesOptions = z
  .object({
    replace_char: z.string().default('').describe('What the first line of a run of symbol-only lines becomes ("" = drop it too)'),
    symbols_to_remove: z
      .array(z.string())
      .nullable()
      .default(null)
      .describe('Characters a symbol line may consist of (besides spaces); null = DataTrove PUNCTUATION_SET'),
  })
  .strict();
export type SymbolLinesOptions = z.output<typeof symbolLinesOptions>;

/**
 * Spans that give DataTrove's output (`"\n".join` of the kept lines) when the mixer deletes `line_removed` and
 * `trimmed`, replaces `line_replaced` with replace_char and `separator` with "\n".
 */
export function symbolLineSpans(text: string, o: SymbolLinesOptions): TagSpan[] {
  const symbols: ReadonlySet<string> = o.symbols_to_remove ? new Set(o.symbols_to_remove) : PUNCTUATION_SET;
  const units: LineUnit[] = [];
  let inRun = false;
  let removed = 0;
  forEachLine(text, (start, end, next) => {
    const [a, b] = stripRange(text, start, end);
    let symbolLine = a < b;
    for (let i = start; symbolLine && i < end; ) {
      const cp = text.codePointAt(i) ?? 0;
      if (cp !== 0x20 && !symbols.has(String.fromCodePoint(cp))) symbolLine = false;
      i += cp > 0xffff ? 2 : 1;
    }
    const first = symbolLine && !inRun;
    const kept = !symbolLine || (first && o.replace_char !== '');
    units.push({ start, end, next, a: start, b: end, kept, replaced: symbolLine && kept });
    if (!kept) removed++;
    inRun = symbolLine;
  });
  const n = text.length;
  return [{ start: 0, end: n, type: 'symbol_lines_removed', score: removed }, ...lineEdits(text, units, true, false)];
}

export const symbolLinesFormatter: TaggerSpec<SymbolLinesOptions> = {
  name: 'symbol_lines_formatter',
  description: 'DataTrove SymbolLinesFormatter: lines made only of punctuation/symbols, as spans to delete',
  outputs: [
    { type: 'symbol_lines_removed', description: 'Lines dropped (runs of symbol-only lines)', range: '≥ 0', level: 'document' },
    { type: 'line_removed', description: 'A dropped line with its line break: delete', range: '1', level: 'spans' },
    { type: 'line_replaced', description: 'First symbol line of a run when replace_char is set: replace with it', range: '1', level: 'spans' },
    { type: 'trimmed', description: 'The line break after the last kept line: delete', range: '1', level: 'spans' },
    { type: 'separator', description: 'A line break other than \\n between kept lines: replace with \\n', range: '1', level: 'spans' },
  ],
  options: symbolLinesOptions,
  create(options) {
    return { tag: (doc) => symbolLineSpans(doc.text, options) };
  },
};
