// Messages between the engine host (a utility process) and Electron main about job processes, which only main can start.
// They share the host's parentPort with the contract's envelopes; the `assay.job.` prefix keeps them apart.

/** Host → main. */
export type HostToMain =
  /** Start the job runner (main checks it is its own runner script) with this environment and working directory. */
  | { type: 'assay.job.launch'; launchId: number; modulePath: string; env: Record<string, string>; cwd: string }
  | { type: 'assay.job.kill'; launchId: number };

/** Main → host; the job process gets `assay.job.port` (no launchId) with the other end of the same channel. */
export type MainToHost =
  /** Carries one end of a MessageChannelMain whose other end the job process holds: the runner protocol runs over it. */
  | { type: 'assay.job.port'; launchId: number }
  /** One line of the job process's stdout or stderr. */
  | { type: 'assay.job.line'; launchId: number; line: string }
  /** The job process is gone (or never started), after its last line. */
  | { type: 'assay.job.exit'; launchId: number; reason: string };

/** What main sends a job process, with the port as its only transferred object. */
export const JOB_PORT_MESSAGE = { type: 'assay.job.port' } as const;

export const isLaunchMessage = (m: unknown): m is HostToMain | MainToHost =>
  typeof m === 'object' && m !== null && typeof (m as { type?: unknown }).type === 'string' && (m as { type: string }).type.startsWith('assay.job.');
