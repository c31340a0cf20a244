// Small, self-consistent host answers for store tests: a workspace, preview results, documents.
import type { CountBySource, DocumentRow, PreviewResult, PreviewRule, WorkspaceInfo } from '../../../shared/contract/index.js';

export function workspaceInfo(over: Partial<WorkspaceInfo> = {}): WorkspaceInfo {
  return {
    root: '/data/demo',
    name: 'demo',
    sources: [{ source: 'wiki', docs: 600, files: 2, bytes: 1_200_000, tokens: 300_000 }],
    files: [{ path: 'documents/wiki-0.jsonl.gz', docs: 600, bytes: 1_200_000 }],
    attributes: [
      { key: 'demo__gopher_v1__word_count', set: 'demo', kind: 'document', docs: 600, spans: 600, min: 3, max: 900, quantiles: [{ p: 0.5, value: 120 }], tagger: 'gopher_v1', description: 'Gopher quality signals' },
    ],
    index: { built: true, docs: 600, stale: false, schemaVersion: 1 },
    recipes: ['configs/demo.yaml'],
    configs: [{ path: 'configs/demo.yaml', kinds: ['mix'] }],
    ...over,
  };
}

export function count(docs: number, tokens = docs * 10, bySource: Record<string, { docs: number; tokens: number }> = {}): CountBySource {
  return { docs, tokens, bySource };
}

export function rule(index: number, sequential: number, over: Partial<PreviewRule> = {}): PreviewRule {
  return {
    index,
    stream: 'main',
    kind: 'exclude',
    expression: `$.attributes[?(@.k${index} < 1)]`,
    syntax: 'jsonpath',
    path: 'compiled',
    alone: count(sequential + 5),
    exclusive: count(Math.max(0, sequential - 5)),
    sequential: count(sequential),
    missingKeys: [],
    ...over,
  };
}

/** A preview whose kept count is `total` minus the rules' sequential drops. */
export function previewResult(rules: PreviewRule[], total = 600): PreviewResult {
  const dropped = rules.reduce((a, r) => a + (r.kind === 'span_replacement' ? 0 : r.sequential.docs), 0);
  return {
    total: { ...count(total), kept: count(total - dropped), dropped: count(dropped) },
    rules,
    exact: true,
    tokens: { kind: 'estimate', note: 'estimated tokens (⌈UTF-8 bytes / 4⌉): no tokenizer count in the index' },
    outsideStreams: 0,
    elapsedMs: 3,
  };
}

export function docRow(i: number, over: Partial<DocumentRow> = {}): DocumentRow {
  return { id: `doc-${i}`, source: 'wiki', file: 'documents/wiki-0.jsonl.gz', line: i + 1, bytes: 100, chars: 100, tokens: 20, values: {}, snippet: `text ${i}`, ...over };
}
