import { describe, expect, it } from 'vitest';
import { loadThemePref, monacoTheme, resolveTheme, saveThemePref, THEME_STORAGE_KEY, type PrefStorage } from './theme.js';

const memory = (init: Record<string, string> = {}): PrefStorage & { data: Record<string, string> } => {
  const data = { ...init };
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
};

describe('theme', () => {
  it('follows the system unless light or dark is chosen', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(monacoTheme('dark')).toBe('vs-dark');
    expect(monacoTheme('light')).toBe('vs');
  });

  it('persists the choice, and reads anything unknown or unreadable as system', () => {
    const st = memory();
    expect(loadThemePref(st)).toBe('system');
    saveThemePref(st, 'dark');
    expect(st.data[THEME_STORAGE_KEY]).toBe('dark');
    expect(loadThemePref(st)).toBe('dark');
    expect(loadThemePref(memory({ [THEME_STORAGE_KEY]: 'neon' }))).toBe('system');
    const refusing: PrefStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(loadThemePref(refusing)).toBe('system');
    expect(() => saveThemePref(refusing, 'light')).not.toThrow();
    expect(loadThemePref(undefined)).toBe('system');
  });
});
