// One log line on stderr: what every verb (and a Slurm task) passes as its `log` and glob-note listener.

export const stderrLine = (line: string): void => void process.stderr.write(`${line}\n`);
