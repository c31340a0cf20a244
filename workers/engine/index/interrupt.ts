// Cooperative interruption of long preview work: a host installs a check (e.g. "a newer preview arrived") that throws to stop the engine.

let current: (() => void) | null = null;

/**
 * Installs the check the engine's long loops call between units of work (a rule, a chunk of documents);
 * it throws (an AssayError CANCELLED) to stop the running call. Only called where throwing leaves no
 * half-built cache behind. The CLI installs none.
 */
export function setInterruptCheck(check: (() => void) | null): void {
  current = check;
}

export function checkInterrupt(): void {
  if (current !== null) current();
}
