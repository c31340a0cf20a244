// The commands the README shows, read from the README itself: fenced `sh` blocks with the folder they run from, and bench commands.

/** Where a block's commands run: the repository, or a user's folder holding `dataset/documents/`. */
export type RunFrom = 'repo' | 'data';

export interface CommandBlock {
  from: RunFrom;
  /** 1-based line of the opening fence, for messages. */
  line: number;
  /** Commands with `\` continuations joined and trailing `# comments` removed. */
  commands: string[];
}

/**
 * Every ```sh block must be preceded (on the line above, blank lines allowed) by
 * `<!-- run-from: repo|data -->`: a block without one is an error, so no command escapes the test.
 */
export function commandBlocks(readme: string): CommandBlock[] {
  const lines = readme.split('\n');
  const blocks: CommandBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i] ?? '')) continue;
    let j = i - 1;
    while (j >= 0 && (lines[j] ?? '').trim() === '') j--;
    const m = /^<!--\s*run-from:\s*(repo|data)\s*-->$/.exec((lines[j] ?? '').trim());
    if (!m) throw new Error(`README.md:${i + 1}: a shell block without a <!-- run-from: repo|data --> marker above it`);
    const body: string[] = [];
    let k = i + 1;
    for (; k < lines.length && !(lines[k] ?? '').startsWith('```'); k++) body.push(lines[k] ?? '');
    blocks.push({ from: m[1] as RunFrom, line: i + 1, commands: joinCommands(body) });
    i = k;
  }
  return blocks;
}

/** Joins `\` continuations and drops comments (a `#` after whitespace, outside quotes). */
export function joinCommands(body: readonly string[]): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of body) {
    const line = stripComment(raw).trimEnd();
    if (line.endsWith('\\')) {
      cur += `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    cur += line;
    if (cur.trim() !== '') out.push(cur.trim().replace(/\s+/g, ' '));
    cur = '';
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i);
  }
  return line;
}

/** Inline `code` in the README that runs a bench or measurement script (the Performance section's sources). */
export function benchCommands(readme: string): string[] {
  const found = new Set<string>();
  // A code span may wrap across lines in the Markdown source: whitespace runs are one space.
  for (const m of readme.matchAll(/`((?:node --import tsx|npx tsx|npx vitest run)\s[^`]+)`/g)) found.add((m[1] ?? '').trim().replace(/\s+/g, ' '));
  return [...found];
}
