import { afterEach, describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY } from '../lib/theme.js';
import { harness } from '../testing/harness.js';

/** A page's localStorage and prefers-color-scheme, as the ui slice reads them at start. */
function stubPage(stored: Record<string, string>, dark: boolean) {
  const data = { ...stored };
  vi.stubGlobal('localStorage', { getItem: (k: string) => data[k] ?? null, setItem: (k: string, v: string) => void (data[k] = v) });
  vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(prefers-color-scheme: dark)' && dark }));
  return data;
}

describe('ui slice: theme', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('follows the system scheme by default, live', () => {
    stubPage({}, true);
    const { store } = harness();
    expect(store.getState().ui).toMatchObject({ themePref: 'system', systemDark: true, theme: 'dark' });
    store.getState().setSystemDark(false);
    expect(store.getState().ui.theme).toBe('light');
  });

  it('a chosen theme wins over the system and is stored for the next start', () => {
    const data = stubPage({}, true);
    const first = harness().store;
    first.getState().setThemePref('light');
    expect(first.getState().ui.theme).toBe('light');
    first.getState().setSystemDark(true);
    expect(first.getState().ui.theme).toBe('light');
    expect(data[THEME_STORAGE_KEY]).toBe('light');
    // The next start reads the choice back.
    stubPage(data, true);
    expect(harness().store.getState().ui).toMatchObject({ themePref: 'light', theme: 'light' });
    stubPage({ [THEME_STORAGE_KEY]: 'dark' }, false);
    expect(harness().store.getState().ui.theme).toBe('dark');
  });

  it('starts light without storage or matchMedia (node, a refused storage)', () => {
    const { store } = harness();
    expect(store.getState().ui).toMatchObject({ themePref: 'system', systemDark: false, theme: 'light' });
  });
});
