// Electron hardening that cannot run here (no binary): navigation refused for every frame, no devtools when packaged, fuses set in the packaging config.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { appRoot } from './app-root.js';
import { APP_ORIGIN, lockDown } from './lockdown.js';
import { menuTemplate } from './menu.js';

type Handler = (event: { preventDefault(): void; url?: string; isMainFrame?: boolean }, url?: string) => void;

/** A stand-in for WebContents that records the handlers lockDown installs. */
function fakeContents(): { handlers: Map<string, Handler>; openHandler: () => unknown } {
  const handlers = new Map<string, Handler>();
  let openHandler: () => unknown = () => undefined;
  lockDown({
    on: ((name: string, h: Handler) => void handlers.set(name, h)) as never,
    setWindowOpenHandler: ((h: () => unknown) => void (openHandler = h)) as never,
  });
  return { handlers, openHandler: () => openHandler() };
}

function prevented(h: Handler | undefined, event: { url: string; isMainFrame?: boolean }, urlArg?: string): boolean {
  let stopped = false;
  h?.({ ...event, preventDefault: () => void (stopped = true) }, urlArg);
  return stopped;
}

const source = (path: string): string => readFileSync(join(appRoot(), path), 'utf8');

describe('Electron web contents', () => {
  it('refuses navigation of any frame away from the app, and any subframe navigation', () => {
    const { handlers, openHandler } = fakeContents();
    const frame = handlers.get('will-frame-navigate');
    expect(frame).toBeDefined();
    expect(prevented(frame, { url: 'https://evil.example/', isMainFrame: true })).toBe(true);
    expect(prevented(frame, { url: 'file:///etc/passwd', isMainFrame: true })).toBe(true);
    expect(prevented(frame, { url: `${APP_ORIGIN}/index.html`, isMainFrame: false })).toBe(true);
    expect(prevented(frame, { url: 'https://evil.example/', isMainFrame: false })).toBe(true);
    expect(prevented(frame, { url: `${APP_ORIGIN}/index.html`, isMainFrame: true })).toBe(false);
    expect(prevented(handlers.get('will-navigate'), { url: '' }, 'https://evil.example/')).toBe(true);
    expect(prevented(handlers.get('will-redirect'), { url: '' }, 'https://evil.example/')).toBe(true);
    expect(prevented(handlers.get('will-attach-webview'), { url: '' })).toBe(true);
    expect(openHandler()).toEqual({ action: 'deny' });
  });

  it('has no developer tools in the packaged menu, and keeps them for development builds', () => {
    const roles = (packaged: boolean): string[] =>
      JSON.parse(JSON.stringify(menuTemplate({ packaged, openFolder: () => undefined }), (k, v: unknown) => (k === 'click' ? undefined : v)))
        .flatMap((m: { role?: string; submenu?: { role?: string }[] }) => [m.role, ...(m.submenu ?? []).map((s) => s.role)])
        .filter((r: string | undefined): r is string => r !== undefined);
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
    const main = source('main/main.ts');
    expect(main).toMatch(/menuTemplate\(\{ packaged: app\.isPackaged\b/);
    expect(main).toMatch(/createWindow\(.*, \{ devTools: !app\.isPackaged \}\)/);
    expect(main).not.toMatch(/toggleDevTools|openDevTools/);
    expect(source('main/window.ts')).toMatch(/devTools: opts\.devTools/);
  });
});

describe('packaging config', () => {
  const config = parse(source('electron-builder.yml')) as { electronFuses?: Record<string, boolean>; asar?: unknown };

  it('sets Electron fuses: cookie encryption, ASAR integrity, app only from ASAR, no NODE_OPTIONS or inspector', () => {
    expect(config.electronFuses).toMatchObject({
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
    });
    // ASAR integrity means nothing without the archive.
    expect(config.asar).not.toBe(false);
  });

  it('leaves runAsNode on only while job processes still need ELECTRON_RUN_AS_NODE', () => {
    const needed = /ELECTRON_RUN_AS_NODE/.test(source('workers/host/jobs/manager.ts'));
    // When jobs no longer fork through ELECTRON_RUN_AS_NODE this fails until the fuse is turned off.
    expect(config.electronFuses?.runAsNode).toBe(needed);
  });
});
