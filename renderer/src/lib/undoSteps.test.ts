import { describe, expect, it } from 'vitest';
import { pointerGestures, UndoSteps } from './undoSteps.js';

describe('UndoSteps', () => {
  it('makes an edit with no group a step of its own: a stop before and after', () => {
    const u = new UndoSteps();
    expect(u.before(null, 1)).toBe(true);
    expect(u.after(null, 2)).toBe(true);
    expect(u.before(null, 2)).toBe(true);
  });

  it('keeps the edits of one group in one step, and starts a new step for the next group', () => {
    const u = new UndoSteps();
    expect(u.before('drag-1', 1)).toBe(true);
    expect(u.after('drag-1', 2)).toBe(false);
    expect(u.before('drag-1', 2)).toBe(false);
    expect(u.after('drag-1', 3)).toBe(false);
    expect(u.before('drag-2', 3)).toBe(true);
  });

  it('closes a group when something else changed the model in between (typing, undo) or the model was replaced', () => {
    const u = new UndoSteps();
    u.before('drag-1', 1);
    u.after('drag-1', 2);
    expect(u.before('drag-1', 5)).toBe(true);
    u.after('drag-1', 6);
    u.reset();
    expect(u.before('drag-1', 6)).toBe(true);
  });
});

describe('pointerGestures', () => {
  function target() {
    const ls = new Map<string, (e: Event) => void>();
    return {
      addEventListener: (t: string, l: (e: Event) => void) => void ls.set(t, l),
      removeEventListener: (t: string) => void ls.delete(t),
      fire: (t: string) => ls.get(t)?.({ target: null } as unknown as Event),
      size: () => ls.size,
    };
  }

  it('names one group per press, none between presses', () => {
    const t = target();
    const g = pointerGestures(t as unknown as Window, () => null);
    expect(g.group()).toBeNull();
    t.fire('pointerdown');
    const first = g.group();
    expect(first).not.toBeNull();
    expect(g.group()).toBe(first);
    t.fire('pointerup');
    expect(g.group()).toBeNull();
    t.fire('pointerdown');
    expect(g.group()).not.toBe(first);
    t.fire('pointercancel');
    expect(g.group()).toBeNull();
    g.dispose();
    expect(t.size()).toBe(0);
  });
});
