// A file's identity for caches that must notice when it changes: its path, size and modification time.
import { statSync } from 'node:fs';

/** `path\0size\0mtimeMs`, or null when the file cannot be stat'ed (its loader then reports why). */
export function fileStamp(path: string): string | null {
  try {
    const st = statSync(path);
    return `${path}\0${st.size}\0${st.mtimeMs}`;
  } catch {
    return null;
  }
}
