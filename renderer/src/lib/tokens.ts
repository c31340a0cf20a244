// How token figures are labelled: the index's token numbers are estimates (⌈bytes/4⌉) until a tokenizer count exists.
import type { PreviewResult } from '../../../shared/contract/index.js';

export type TokenKind = PreviewResult['tokens']['kind'];

/** The note shown when a preview has not said how its tokens were counted (an older host). */
export const DEFAULT_TOKEN_NOTE = 'estimated tokens (⌈UTF-8 bytes / 4⌉): no tokenizer count in the index';

/** Column or axis heading for token figures of this kind. */
export function tokenHeading(kind: TokenKind | undefined): string {
  return kind === 'exact' ? 'tokens' : kind === 'partial' ? 'tokens (part est.)' : 'est. tokens';
}

/** Whether the figures must carry the estimate mark (`≈`). */
export const isEstimate = (kind: TokenKind | undefined): boolean => kind !== 'exact';

/** The hover text of a token figure: the exact value and how it was obtained. */
export function tokenTitle(value: string, tokens: PreviewResult['tokens'] | undefined): string {
  if (tokens?.kind === 'exact') return `${value} tokens, counted by ${tokens.tokenizer ?? 'the tokenizer'} (${tokens.note})`;
  return `≈ ${value} tokens — ${tokens?.note ?? DEFAULT_TOKEN_NOTE}`;
}

/** The documents table's token column heading: exact only when every loaded row carries a tokenizer count. */
export function rowTokensHeading(rows: readonly { tokensExact?: boolean }[]): string {
  if (rows.length > 0 && rows.every((r) => r.tokensExact === true)) return 'tokens';
  return rows.some((r) => r.tokensExact === true) ? 'tokens (part est.)' : 'est. tokens';
}
