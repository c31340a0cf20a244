// Names that become one path segment (stream names, experiments, attribute sets, dedupe names): one safe segment or refused.
import { z } from 'zod';

/** Why `name` cannot be one path segment, or null when it can. */
export function segmentProblem(name: string): string | null {
  if (name === '') return 'must not be empty';
  if (name === '.' || name === '..') return `"${name}" would name a folder above or at the parent, not a folder of its own`;
  if (/[/\\]/.test(name)) return `must be a single name without "/" or "\\" (it becomes one folder or file name), got ${JSON.stringify(name)}`;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return `must not contain control characters (it becomes a folder or file name), got ${JSON.stringify(name)}`;
  return null;
}

/** A zod string that must be usable as one folder or file name. */
export const safeSegment = (): z.ZodString =>
  z.string().superRefine((s, ctx) => {
    const why = segmentProblem(s);
    if (why !== null) ctx.addIssue({ code: 'custom', message: why });
  });
