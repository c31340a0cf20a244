// Raw sources a workspace can start from (the Sources dialog): Parquet files to import, WARC files to extract.

export interface SourceFile {
  /** Workspace-relative. */
  path: string;
  kind: 'parquet' | 'warc';
  bytes: number;
  /** A Parquet file's top-level columns (to pick the text and id columns); absent when its footer cannot be read. */
  columns?: string[];
  rows?: number;
  /** Why the file cannot be read as what its name says. */
  problem?: string;
}
