// `assay serve --workspace DIR [--port N] [--no-open]`: starts browser mode, prints the tokened URL, opens a browser when it can.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startServer } from './server.js';

export const SERVE_HELP = `Usage: assay serve --workspace DIR [--port N] [--no-open]

Serves the Assay app for a browser on http://127.0.0.1 (never on other interfaces), with the engine
for the workspace DIR behind it. The printed URL carries a random session token; requests without it
(or from another origin or host name) are refused.

Options:
  --workspace, -w DIR  the dataset folder (documents/, attributes/, recipes); default: the current folder
  --port N             port to listen on (default: a free one)
  --no-open            do not try to open a browser
  --help, -h           show this help
`;

export interface ServeArgs {
  workspace: string;
  port: number;
  open: boolean;
  help: boolean;
}

export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const out: ServeArgs = { workspace: '.', port: 0, open: true, help: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? '').split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--workspace' || flag === '-w') out.workspace = value();
    else if (flag === '--port') {
      const v = value();
      const n = Number(v);
      if (!/^\d+$/.test(v) || n > 65535) throw new Error(`--port expects a number from 0 to 65535, got '${v}'`);
      out.port = n;
    } else if (flag === '--no-open') out.open = false;
    else if (flag === '--help' || flag === '-h') out.help = true;
    else throw new Error(`unknown option '${flag}'`);
  }
  return out;
}

/** Best effort: a missing or failing opener only prints a note, never stops the server. */
function openBrowser(url: string, log: (m: string) => void): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => log(`(could not start ${cmd}; open the URL above yourself)`));
    child.unref();
  } catch {
    log(`(could not start ${cmd}; open the URL above yourself)`);
  }
}

export async function serveMain(argv: readonly string[]): Promise<number> {
  let args: ServeArgs;
  try {
    args = parseServeArgs(argv);
  } catch (e) {
    process.stderr.write(`assay serve: ${(e as Error).message}\n\n${SERVE_HELP}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const log = (m: string): void => void process.stderr.write(`assay serve: ${m}\n`);
  const workspace = resolve(args.workspace);
  const server = await startServer({ workspace, port: args.port, log });
  process.stdout.write(`Assay is serving ${workspace}\n${server.url}\n(Ctrl-C stops it)\n`);
  if (args.open) openBrowser(server.url, log);
  await new Promise<void>((done) => {
    const stop = (): void => void server.close().then(done, done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
