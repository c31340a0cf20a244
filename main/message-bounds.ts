// Bounds on what a client may send before it reaches the host: message size and nesting depth (deep values make serializers throw).

/** A recipe may be up to 4 MB (shared/contract/methods.ts); JSON escaping can double it. Larger messages are refused with BAD_REQUEST. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/**
 * No contract method's params nest anywhere near this deep (recipes travel as text). Structured clone
 * and JSON.stringify recurse, and a few thousand levels overflow their stack; 64 stays far from that.
 */
export const MAX_DEPTH = 64;

/**
 * Whether JSON text nests arrays/objects deeper than `max`, scanning the text once (strings skipped)
 * and stopping as soon as it is: a hostile 10 MB of `[` is refused without parsing it.
 */
export function jsonTooDeep(text: string, max = MAX_DEPTH): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote with indexOf (native, fast on a 4 MB recipe string): a quote preceded by an odd number of backslashes is escaped.
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q < 0) return false;
        let b = q - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The same bound on an already structured value (Electron IPC delivers params cloned, not as text); iterative, so it cannot overflow itself. */
export function valueTooDeep(value: unknown, max = MAX_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    if (d >= max) return true;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/** The numeric `"id"` of a message that will not be parsed (too large or too deep), when it sits near either end, where senders put it. */
export function sniffId(text: string): number | undefined {
  for (const part of [text.slice(0, 512), text.slice(-512)]) {
    const m = /"id"\s*:\s*(-?\d{1,15})\s*[,}]/.exec(part);
    if (m) return Number(m[1]);
  }
  return undefined;
}
