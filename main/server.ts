// Browser mode: the built renderer and the contract over WebSocket on 127.0.0.1, behind a random session token (DESIGN §6–§7).
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import type { HostApi } from '../workers/host/client.js';
import { forkHost } from '../workers/host/launch-process.js';
import { HostSupervisor } from '../workers/host/supervisor.js';
import { appRoot } from './app-root.js';
import { Gate, securityHeaders } from './security.js';
import { lookupStatic, notBuiltPage, sendFile } from './static.js';
import { bridgeSockets } from './ws-bridge.js';

export interface ServerOptions {
  workspace: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The built renderer; default `<repo>/dist/renderer`. */
  rendererDir?: string;
  /** An engine host to serve; by default one is forked and supervised, and closed with the server. */
  host?: HostApi;
  log?: (message: string) => void;
}

export interface RunningServer {
  /** The page URL with its token: the one way in. */
  url: string;
  token: string;
  port: number;
  host: HostApi;
  close(): Promise<void>;
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const body = `${reason}\n`;
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  if (!statSync(opts.workspace, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`workspace '${opts.workspace}' is not a folder`);
  const rendererDir = opts.rendererDir ?? join(appRoot(), 'dist', 'renderer');
  const token = randomBytes(32).toString('base64url');
  const server = createServer();
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => done());
  });
  // After listening, a server-level error (e.g. out of file descriptors on accept) is logged, never fatal.
  server.on('error', (e) => opts.log?.(`server error: ${e.message}`));
  const port = (server.address() as AddressInfo).port;
  const gate = new Gate(token, port);
  const headers = securityHeaders(port);
  const ownHost = opts.host === undefined;
  const host = opts.host ?? new HostSupervisor(forkHost({ workspace: opts.workspace }), opts.log ? { log: opts.log } : {});
  const bridge = bridgeSockets(host, opts.log ? { log: opts.log } : {});

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const verdict = gate.check(req.headers, url);
    if (!verdict.ok) return plain(res, verdict.status, `assay serve: refused (${verdict.reason}); open the URL that \`assay serve\` printed, it carries the session token`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return plain(res, 405, 'method not allowed');
    }
    if (url.pathname === '/ws') return plain(res, 426, 'the contract is served over WebSocket here');
    if (verdict.via === 'query') res.setHeader('Set-Cookie', gate.cookie());
    if (!existsSync(join(rendererDir, 'index.html'))) {
      res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8' });
      return void res.end(notBuiltPage(rendererDir));
    }
    const found = lookupStatic(rendererDir, url.pathname);
    if (!found.ok) return plain(res, found.status, STATUS_CODES[found.status] ?? 'error');
    sendFile(res, found, req.method === 'HEAD');
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the upgrade socket over with no 'error' listener: a reset before ws takes it (or while
    // it is refused) must end that socket, not the process.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/ws') return refuseUpgrade(socket, 404, 'not found');
    const verdict = gate.check(req.headers, url);
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, `refused (${verdict.reason})`);
    bridge.wss.handleUpgrade(req, socket, head, (ws) => bridge.wss.emit('connection', ws, req));
  });

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    port,
    host,
    close: async () => {
      bridge.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      if (ownHost) await host.close();
    },
  };
}
