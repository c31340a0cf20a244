// `assay explain -c recipe.yaml --index ROOT --id ID`: why one document is kept or dropped, and its output text.
import { stringOption, UsageError, type ParsedArgs } from './args.js';
import { openForCli, readRecipe } from './preview.js';

export async function explainCommand(args: ParsedArgs): Promise<number> {
  const { path, text, root } = await readRecipe(args, 'explain');
  const id = stringOption(args, 'id');
  if (id === undefined) throw new UsageError('explain needs a document: --id ID');
  const engine = openForCli(root);
  try {
    const e = engine.explain(text, id, { recipePath: path });
    if (args.options.get('json') === true) {
      process.stdout.write(JSON.stringify(e) + '\n');
      return 0;
    }
    const lines = [`${e.id} (${e.file}:${e.line}, source ${e.source || '(none)'}, stream ${e.stream ?? '-'})`, `${e.fate.toUpperCase()}: ${e.reason}`, ''];
    for (const r of e.rules) {
      const values = r.values.map((v) => `${v.key} = ${v.value === undefined ? 'absent' : JSON.stringify(v.value)}`).join(', ');
      lines.push(`  rule ${String(r.index).padEnd(3)} ${r.verdict.padEnd(5)} ${r.kind.padEnd(17)} ${r.expression}${values ? `\n            ${values}` : ''}`);
      // The DataTrove sub-rules that failed behind a verdict flag, each with its value and threshold.
      for (const b of r.because ?? []) lines.push(`            failing sub-rule: ${b.text}`);
    }
    if (e.output !== undefined) {
      // Mark replaced ranges in the original text: ⟦original→replacement⟧.
      let marked = '';
      let at = 0;
      for (const r of [...e.replaced].sort((a, b) => a.start - b.start)) {
        if (r.start < at) continue;
        marked += e.text.slice(at, r.start) + `⟦${e.text.slice(r.start, r.end)}→${r.replacement}⟧`;
        at = r.end;
      }
      marked += e.text.slice(at);
      lines.push('', e.replaced.length ? `text (${e.replaced.length} replacement(s) marked ⟦original→replacement⟧):` : 'text (unchanged):', marked);
    }
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  } finally {
    engine.close();
  }
}
