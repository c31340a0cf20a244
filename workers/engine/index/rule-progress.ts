// Progress of a long preview by rules evaluated: a job installs a report (the app's exact figures), the engine calls it per rule.

let report: ((done: number, total: number) => void) | null = null;

/** Installs the report a preview calls as it evaluates its rules, or removes it (null). Live previews install none. */
export function setRuleProgress(r: ((done: number, total: number) => void) | null): void {
  report = r;
}

export function ruleProgress(done: number, total: number): void {
  if (report !== null) report(done, total);
}
