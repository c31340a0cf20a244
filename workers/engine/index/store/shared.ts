// Arrays owned by loaded columns and shared constants: a memo that holds a view of one does not pay for it.
const shared = new WeakSet<object>();

export function markShared(...arrays: (ArrayBufferView | null | undefined)[]): void {
  for (const a of arrays) if (a) shared.add(a);
}

export const isShared = (a: ArrayBufferView): boolean => shared.has(a);
