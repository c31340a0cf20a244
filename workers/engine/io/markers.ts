// Completion markers of per-file stages (tag, warc, import): where a file's marker lives, so a rerun skips what a run finished.
import { basename, dirname, join } from 'node:path';

/** Markers live in a hidden folder beside each output: `<dir>/.assay-done/<file>.json`. */
export const markerPath = (output: string): string => join(dirname(output), '.assay-done', `${basename(output)}.json`);
