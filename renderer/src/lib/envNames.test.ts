import { describe, expect, it } from 'vitest';
import { parseEnvNames } from './envNames.js';

describe('parseEnvNames', () => {
  it('takes names one per line or separated by commas and blanks, once each, and lists the invalid ones', () => {
    expect(parseEnvNames('HOME\nDATA_ROOT, _X  HOME\n\n')).toEqual({ names: ['HOME', 'DATA_ROOT', '_X'], invalid: [] });
    expect(parseEnvNames('1BAD ok-not $HOME GOOD')).toEqual({ names: ['GOOD'], invalid: ['1BAD', 'ok-not', '$HOME'] });
    expect(parseEnvNames('')).toEqual({ names: [], invalid: [] });
  });
});
