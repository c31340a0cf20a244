// Test helpers for the deduper: fresh copies of the conformance fixture, configs with overrides, code-point slicing.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dedupeConfig, type DedupeConfig } from '../../../shared/dedupe/schema.js';
import { CONFORMANCE, scratchDir } from '../testing.js';

export const DOLMA = join(CONFORMANCE, 'dolma');

/** A scratch dir holding a copy of `deduper/`, since the deduper writes beside its input. */
/** A temp copy of the deduper fixtures (the deduper writes beside its input), removed after the test. */
export function scratchWithFixture(): { dir: string } {
  const dir = scratchDir('assay-dedupe-');
  cpSync(join(DOLMA, 'deduper'), join(dir, 'deduper'), { recursive: true });
  return { dir };
}

export function readFixtureConfig(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(DOLMA, 'deduper/configs', name), 'utf8')) as Record<string, unknown>;
}

/** Sets `a.b.c` paths in a config object (the inline cases' `overrides`). */
export function withOverrides(base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(base);
  for (const [dotted, value] of Object.entries(overrides)) {
    const keys = dotted.split('.');
    let node = out;
    for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
    node[keys[keys.length - 1] as string] = value;
  }
  return out;
}

export const parseConfig = (raw: unknown): DedupeConfig => dedupeConfig.parse(raw);

/** Python `text[s:e]` on code points (clamped). */
export function cpSlice(text: string, s: number, e: number): string {
  return Array.from(text).slice(s, e).join('');
}

export type Row = { id: unknown; attributes: Record<string, [number, number, number][]> };
