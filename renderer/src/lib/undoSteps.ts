// Which edits the app writes into the editor form one undo step: one per edit, or one per group (one threshold drag).

/**
 * Tracks the open undo group. An app edit with no group is a step of its own (stop before and after); edits of one
 * group are one step as long as nothing else (typing, an undo) changed the model between them, which the model's
 * version id tells.
 */
export class UndoSteps {
  #open: string | null = null;
  #version = -1;

  /** Before an app edit: must an undo stop close whatever came before? */
  before(group: string | null, version: number): boolean {
    return !(group !== null && group === this.#open && version === this.#version);
  }

  /** After it (with the model's new version): must an undo stop close this edit now? */
  after(group: string | null, version: number): boolean {
    this.#open = group;
    this.#version = version;
    return group === null;
  }

  /** The model was replaced (another file): nothing is open. */
  reset(): void {
    this.#open = null;
    this.#version = -1;
  }
}

/**
 * Counts pointer presses outside `exclude` (the editor itself): edits the app makes while a press lasts (a drag on
 * the histogram) belong to that press's group. Returns the current group (null when no press is on) and a disposer.
 */
export function pointerGestures(target: Pick<Window, 'addEventListener' | 'removeEventListener'>, exclude: () => Element | null): { group(): string | null; dispose(): void } {
  let n = 0;
  let pressed = false;
  const down = (e: Event): void => {
    const el = exclude();
    if (el && e.target instanceof Node && el.contains(e.target)) return;
    n++;
    pressed = true;
  };
  const up = (): void => {
    pressed = false;
  };
  target.addEventListener('pointerdown', down, true);
  target.addEventListener('pointerup', up, true);
  target.addEventListener('pointercancel', up, true);
  return {
    group: () => (pressed ? `pointer-${n}` : null),
    dispose() {
      target.removeEventListener('pointerdown', down, true);
      target.removeEventListener('pointerup', up, true);
      target.removeEventListener('pointercancel', up, true);
    },
  };
}
