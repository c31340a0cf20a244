// Runs on Slurm (issue 17) on a real single-node cluster, from the Runs tab: the demo workspace tagged as a 2-task array and mixed, per-task
// states, the choice remembered per workspace, and a failing task shown with its input and log tail.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlurm, type Cluster } from '../workers/engine/executor/testing.js';
import { readJsonlFile } from '../workers/engine/testing.js';
import { figure, hasChromium, openRecipe, openSession, shot, type Session } from './harness.js';

// Own ports and node name: the engine's Slurm tests and bench run their own clusters at the same time.
const BASE = '/tmp/assay-slurm-e2e';
let cluster: Cluster | null = null;
let s: Session | undefined;

const state = (testId: string) => s!.page.getByTestId(testId).getAttribute('data-state');

describe.skipIf(!hasChromium)('Runs on Slurm', () => {
  beforeAll(async () => {
    cluster = startSlurm(BASE, { ctld: 6837, slurmd: 6838, node: 'e2enode' });
    if ('skip' in cluster) {
      process.stderr.write(`Slurm e2e skipped: ${cluster.skip}\n`);
      return;
    }
    // The server's host (forked with this environment) keeps SLURM_CONF, and its Slurm jobs pass it to sbatch.
    process.env.SLURM_CONF = cluster.conf;
    s = await openSession({ docs: 200 });
    writeFileSync(join(s.ws, 'configs/lengths.yaml'), 'documents: [documents/*.jsonl.gz]\ntaggers: [char_length_v1]\nexperiment: slurm_lengths\n');
    mkdirSync(join(s.ws, 'broken/documents'), { recursive: true });
    writeFileSync(join(s.ws, 'broken/documents/bad.jsonl.gz'), 'this is not gzip\n');
    writeFileSync(join(s.ws, 'configs/broken.yaml'), 'documents: [broken/documents/*.jsonl.gz]\ntaggers: [char_length_v1]\nexperiment: slurm_lengths\n');
  }, 400_000);

  afterAll(async () => {
    await s?.close();
    if (cluster && 'stop' in cluster) cluster.stop();
  });

  it('tags the demo as a 2-task array from the Runs tab, shows each task done, remembers the choice, then mixes on Slurm exactly the previewed documents', async (ctx) => {
    if (!cluster || 'skip' in cluster || !s) return ctx.skip(cluster && 'skip' in cluster ? cluster.skip : 'no cluster');
    const { page, server, ws } = s;
    await openRecipe(page, server, 'recipes/demo.yaml');
    const kept = await figure(page, 'total-kept');
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('run-kind').selectOption('tag');
    await page.getByTestId('run-config').selectOption('configs/lengths.yaml');
    await page.getByTestId('run-executor').selectOption('slurm');
    await page.getByTestId('slurm-tasks').fill('2');
    await page.getByTestId('run-start').click();

    await page.getByTestId('slurm-task-1').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('job-latest-state').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    expect([await state('slurm-task-0'), await state('slurm-task-1'), await state('slurm-task-final')]).toEqual(['done', 'done', 'done']);
    expect(await page.getByTestId('slurm-counts').textContent()).toBe('2 done');
    expect(readdirSync(join(ws, 'attributes/slurm_lengths')).filter((f) => !f.startsWith('.')).sort()).toEqual(['books-0000.jsonl.gz', 'forum-0000.jsonl.gz', 'web-0000.jsonl.gz']);
    await shot(page, 'slurm-1-tag-done');

    // The choice is the workspace's: a new page shows Slurm with 2 tasks again.
    await page.reload();
    await page.getByTestId('tab-runs').click();
    await expect.poll(() => page.getByTestId('run-executor').inputValue(), { timeout: 10_000 }).toBe('slurm');
    expect(await page.getByTestId('slurm-tasks').inputValue()).toBe('2');
    // The Sources dialog's jobs follow that choice, and it says so.
    await page.getByTestId('sources-open').click();
    await expect.poll(() => page.getByTestId('sources-executor').textContent(), { timeout: 10_000 }).toBe('runs on Slurm (chosen in the Runs tab)');
    await page.getByTestId('sources-close').click();

    await page.getByTestId('run-mix').click();
    await expect.poll(() => page.locator('[data-testid="job-latest-state"][data-state]').getAttribute('data-job-id'), { timeout: 10_000 }).toMatch(/^mix-/);
    await expect.poll(() => page.getByTestId('job-latest-state').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    expect(await state('slurm-task-final')).toBe('done');
    const out = join(ws, 'output/demo');
    const shards = readdirSync(out).filter((f) => /\.json(l)?(\.gz|\.zst)?$/.test(f));
    expect(shards.length).toBeGreaterThan(0);
    expect(shards.flatMap((f) => readJsonlFile(join(out, f)))).toHaveLength(kept);
    expect(existsSync(join(out, '.assay/manifest.json'))).toBe(true);
    expect(s.consoleErrors).toEqual([]);
  }, 150_000);

  it('a task that fails shows its input and the last lines of its log, and the job fails', async (ctx) => {
    if (!cluster || 'skip' in cluster || !s) return ctx.skip(cluster && 'skip' in cluster ? cluster.skip : 'no cluster');
    const { page } = s;
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('run-kind').selectOption('tag');
    await page.getByTestId('run-config').selectOption('configs/broken.yaml');
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.locator('[data-testid="job-latest-state"]').getAttribute('data-job-id'), { timeout: 10_000 }).toMatch(/^tag-/);
    await expect.poll(() => page.getByTestId('job-latest-state').getAttribute('data-state'), { timeout: 60_000 }).toBe('failed');
    expect(await state('slurm-task-0')).toBe('failed');
    const failed = page.getByTestId('slurm-failed-0');
    expect(await failed.textContent()).toContain('broken/documents/bad.jsonl.gz');
    expect(await failed.locator('pre').textContent()).toMatch(/bad\.jsonl\.gz/);
    await shot(page, 'slurm-2-failed-task');
  }, 90_000);

  it('Cancel on a running Slurm job runs scancel: the job and its tasks end cancelled', async (ctx) => {
    if (!cluster || 'skip' in cluster || !s) return ctx.skip(cluster && 'skip' in cluster ? cluster.skip : 'no cluster');
    const { page } = s;
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('run-kind').selectOption('tag');
    await page.getByTestId('run-config').selectOption('configs/lengths.yaml');
    // Each task waits first (the env setup line), so Cancel always finds it queued or running; another task count is another logging dir.
    await page.getByTestId('slurm-tasks').fill('3');
    await page.getByTestId('slurm-env_command').fill('sleep 60');
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.locator('[data-testid="job-latest-state"]').getAttribute('data-job-id'), { timeout: 10_000 }).toMatch(/^tag-/);
    await page.getByTestId('slurm-task-2').waitFor({ timeout: 30_000 });
    await page.getByTestId('slurm-cancel').click();
    await expect.poll(() => page.getByTestId('job-latest-state').getAttribute('data-state'), { timeout: 30_000 }).toBe('cancelled');
    expect([await state('slurm-task-0'), await state('slurm-task-1'), await state('slurm-task-2')]).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await shot(page, 'slurm-3-cancelled');
  }, 60_000);
});
