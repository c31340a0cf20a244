// The index's own walk of documents/: each folder once, and a note for each link it does not follow or cannot read.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../../testing.js';
import { discover } from './discover.js';

describe('discover', () => {
  it('lists a folder reached twice once, and names the link back up, the second path and the dangling link', async () => {
    const root = scratchDir();
    writeJsonl(join(root, 'documents/v3/a.jsonl'), [{ id: '1', text: 'x' }]);
    mkdirSync(join(root, 'documents/v3/sub'));
    symlinkSync('..', join(root, 'documents/v3/sub/loop'));
    symlinkSync('v3', join(root, 'documents/latest'));
    symlinkSync('gone.jsonl', join(root, 'documents/dangling.jsonl'));
    const notes: string[] = [];
    const found = await discover(root, undefined, (l) => notes.push(l));
    // `latest` sorts before `v3`, so the walk (in code-point order) reaches the folder through the link first.
    expect(found.documents.map((d) => d.path)).toEqual(['documents/latest/a.jsonl']);
    expect(notes.sort()).toEqual([
      'documents/dangling.jsonl: skipped: a symbolic link to a missing path (or a loop of links)',
      'documents/latest/sub/loop: not followed: a symbolic link to documents/latest, whose files the index already lists (once each)',
      'documents/v3: not followed: the same folder as documents/latest (reached through a symbolic link), whose files the index already lists (once each)',
    ]);
    // Without a listener the walk is the same, silently.
    expect((await discover(root)).documents.map((d) => d.path)).toEqual(['documents/latest/a.jsonl']);
  });
});
