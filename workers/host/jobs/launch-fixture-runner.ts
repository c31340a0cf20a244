// Test stand-in for the job runner (launcher tests): speaks the runner protocol over runnerChannel and does what ASSAY_FIXTURE says (finish, crash, wait, ignore cancel).
import { runnerChannel } from './launch-channel.js';
import type { RunnerRequest } from './protocol.js';

const channel = runnerChannel();
const mode = process.env.ASSAY_FIXTURE ?? 'finish';

async function leave(code: number): Promise<never> {
  await channel.close();
  process.exit(code);
}

channel.onMessage((m: RunnerRequest) => {
  void (async () => {
    if (m.type === 'cancel') {
      if (mode === 'ignore-cancel') return;
      await channel.send({ type: 'error', error: { code: 'CANCELLED', message: 'cancelled' } });
      return leave(0);
    }
    process.stdout.write('a line on stdout\n');
    process.stderr.write('a line on stderr\n');
    await channel.send({ type: 'progress', report: { done: 1, total: 2, unit: 'files', etaSec: null } });
    await channel.send({ type: 'log', line: `started ${m.kind} in ${process.cwd()} with ASSAY_FIXTURE=${mode}` });
    if (mode === 'crash') return process.exit(3);
    if (mode === 'fail') {
      await channel.send({ type: 'error', error: { code: 'PARSE', message: 'bad line', file: 'documents/a.jsonl', line: 7 } });
      return leave(0);
    }
    if (mode === 'finish') {
      await channel.send({ type: 'progress', report: { done: 2, total: 2, unit: 'files', etaSec: 0 } });
      await channel.send({ type: 'done', summary: 'fixture done', outputs: ['out/x'] });
      return leave(0);
    }
    // 'wait' and 'ignore-cancel' stay until cancelled or killed.
    setInterval(() => undefined, 1000);
  })();
});
channel.onDisconnect(() => process.exit(1));
