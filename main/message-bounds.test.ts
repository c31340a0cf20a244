// The edge's bounds: nesting depth on raw JSON text (strings and escapes skipped) and on structured values, and the id of a refused message.
import { describe, expect, it } from 'vitest';
import { jsonTooDeep, MAX_DEPTH, sniffId, valueTooDeep } from './message-bounds.js';

describe('message bounds', () => {
  it('finds nesting past the limit in JSON text, not inside strings', () => {
    expect(jsonTooDeep('['.repeat(MAX_DEPTH))).toBe(false);
    expect(jsonTooDeep('['.repeat(MAX_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(`{"a":${'{"b":'.repeat(MAX_DEPTH)}1${'}'.repeat(MAX_DEPTH)}}`)).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ recipeText: '['.repeat(10_000) }))).toBe(false);
    // Escaped quotes and backslashes do not end a string early, nor late.
    expect(jsonTooDeep(`["x\\\\\\"${'['.repeat(100)}"]`)).toBe(false);
    expect(jsonTooDeep(`["\\\\",${'['.repeat(100)}`)).toBe(true);
    expect(jsonTooDeep(`["\\"",${'['.repeat(100)}`)).toBe(true);
    expect(jsonTooDeep('"unterminated [[[[')).toBe(false);
  });

  it('finds nesting past the limit in cloned values, cycles included, without recursing', () => {
    let v: unknown = 1;
    for (let i = 0; i < MAX_DEPTH; i++) v = [v];
    expect(valueTooDeep(v)).toBe(false);
    expect(valueTooDeep([v])).toBe(true);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(valueTooDeep(deep)).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(valueTooDeep(cyclic)).toBe(false);
  });

  it('reads the id of a message it will not parse, near either end', () => {
    expect(sniffId('{"type":"request","id":12,"method":"x","params":[[[[')).toBe(12);
    expect(sniffId(`{"params":${'['.repeat(5000)}${']'.repeat(5000)},"id":7}`)).toBe(7);
    expect(sniffId('[[[[[')).toBeUndefined();
  });
});
