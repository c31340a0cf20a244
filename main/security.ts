// Browser-mode access control: the session token (URL or cookie), loopback Host/Origin checks, and the response security headers.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Strict CSP for the built renderer: scripts only from the app itself (no inline script, no eval);
 * inline styles because Monaco and ECharts set style attributes and inject <style>; workers from the
 * app or blob: (Monaco's workers). Browser mode adds the WebSocket back to its server; Electron talks
 * over IPC and needs none.
 */
export function contentSecurityPolicy(websocketPort?: number): string {
  const connect = websocketPort === undefined ? "connect-src 'self'" : `connect-src 'self' ws://127.0.0.1:${websocketPort} ws://localhost:${websocketPort}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    connect,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    // The page URL carries the token: never send it on in a Referer.
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

export type Verdict = { ok: true; via: 'query' | 'cookie' } | { ok: false; status: number; reason: string };

const single = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? undefined : v);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Decides every HTTP request and WebSocket upgrade of one server (one port, one token). */
export class Gate {
  readonly cookieName: string;
  readonly #hosts: Set<string>;
  readonly #origins: Set<string>;

  constructor(
    private readonly token: string,
    readonly port: number,
  ) {
    // Cookies are shared across ports of a host, so the name carries the port: two servers never clash.
    this.cookieName = `assay_${port}`;
    this.#hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.#origins = new Set([...this.#hosts].map((h) => `http://${h}`));
  }

  /** The Set-Cookie value that lets the page's own asset, worker and WebSocket requests authenticate. */
  cookie(): string {
    return `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`;
  }

  #cookieToken(header: string | undefined): string | undefined {
    for (const part of (header ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === this.cookieName) return part.slice(eq + 1).trim();
    }
    return undefined;
  }

  /**
   * Host must name this loopback server (DNS rebinding); Origin, when a browser sends one, must be this
   * server; a token in the URL must be right, and without one the cookie must carry it.
   */
  check(headers: IncomingHttpHeaders, url: URL): Verdict {
    const host = single(headers.host);
    if (host === undefined || !this.#hosts.has(host.toLowerCase())) return { ok: false, status: 403, reason: 'foreign Host header' };
    const origin = single(headers.origin);
    if (origin !== undefined && !this.#origins.has(origin.toLowerCase())) return { ok: false, status: 403, reason: 'foreign Origin' };
    if (single(headers['sec-fetch-site']) === 'cross-site') return { ok: false, status: 403, reason: 'cross-site request' };
    const given = url.searchParams.get('token');
    if (given !== null && given !== '') return sameSecret(given, this.token) ? { ok: true, via: 'query' } : { ok: false, status: 401, reason: 'wrong token' };
    const fromCookie = this.#cookieToken(single(headers.cookie));
    if (fromCookie !== undefined && sameSecret(fromCookie, this.token)) return { ok: true, via: 'cookie' };
    return { ok: false, status: 401, reason: 'missing token' };
  }
}
