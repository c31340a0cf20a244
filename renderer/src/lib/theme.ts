// Light/dark theme: the user's choice (system, light, dark) persisted in localStorage, resolved against the system scheme.

export type ThemePref = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'assay.theme';
const PREFS: readonly ThemePref[] = ['system', 'light', 'dark'];

/** Where the choice is kept: `localStorage` in the app, a stand-in in tests; absent when storage is refused. */
export type PrefStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function resolveTheme(pref: ThemePref, systemDark: boolean): Theme {
  return pref === 'system' ? (systemDark ? 'dark' : 'light') : pref;
}

/** The stored choice; `system` when none (or something unreadable) is stored. */
export function loadThemePref(storage: PrefStorage | undefined): ThemePref {
  try {
    const v = storage?.getItem(THEME_STORAGE_KEY);
    return (PREFS as readonly (string | null | undefined)[]).includes(v) ? (v as ThemePref) : 'system';
  } catch {
    return 'system';
  }
}

export function saveThemePref(storage: PrefStorage | undefined, pref: ThemePref): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, pref);
  } catch {
    // Storage refused (private mode, quota): the choice holds for this session only.
  }
}

/** The browser's storage, when the page may use it. */
export function browserStorage(): PrefStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Whether the system asks for a dark scheme now. */
export function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Colours canvas charts need as values (ECharts cannot read CSS variables). */
export interface ChartPalette {
  text: string;
  muted: string;
  grid: string;
  start: string;
  drop: string;
  end: string;
  tooltipBg: string;
}

export const CHART_PALETTES: Record<Theme, ChartPalette> = {
  light: { text: '#1f2430', muted: '#6b7385', grid: '#eef0f3', start: '#7a8699', drop: '#d9534f', end: '#3c9d5d', tooltipBg: '#ffffff' },
  dark: { text: '#dde3ee', muted: '#98a2b6', grid: '#2c3342', start: '#8793a8', drop: '#e5716d', end: '#4fb874', tooltipBg: '#232938' },
};

/** The Monaco theme for the app theme. */
export const monacoTheme = (t: Theme): 'vs' | 'vs-dark' => (t === 'dark' ? 'vs-dark' : 'vs');
