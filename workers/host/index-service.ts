// The preview engine as the host holds it: opened lazily, reopened after an index job, and a clear error while no index exists.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AttributeKeyInfo, DocumentDetail, DocumentPage, DocumentQuery, ExplainResult, Histogram, IndexStatus, LintIssue, PreviewResult, SampleBucket, SourceInfo } from '../../shared/contract/index.js';
import { HostError } from './errors.js';

/** The part of the engine's PreviewEngine (workers/engine/index) the host serves. */
export interface PreviewEngineLike {
  status(): IndexStatus;
  sources(): SourceInfo[];
  files(): { path: string; docs: number; bytes: number }[];
  catalogue(): AttributeKeyInfo[];
  preview(recipeText: string, opts?: { ids?: boolean }): PreviewResult;
  samples(recipeText: string, rule: number, bucket: SampleBucket, offset: number, limit: number): { ids: string[]; total: number; bucket: SampleBucket };
  explain(recipeText: string, id: string): ExplainResult;
  lint(recipeText: string): LintIssue[];
  histogram(key: string, bins: number): Histogram;
  documentsPage(q: DocumentQuery): DocumentPage;
  document(id: string): DocumentDetail;
  reload(): void;
  close(): void;
}

export type OpenEngine = (root: string) => PreviewEngineLike;

export const indexFile = (root: string): string => join(root, '.assay', 'index.sqlite');

export class IndexService {
  #engine: PreviewEngineLike | null = null;

  constructor(
    readonly root: string,
    private readonly open: OpenEngine,
  ) {}

  get built(): boolean {
    return this.#engine !== null || existsSync(indexFile(this.root));
  }

  /** The open engine; NOT_FOUND (with what to do) while the workspace has no index. */
  engine(): PreviewEngineLike {
    if (this.#engine) return this.#engine;
    if (!existsSync(indexFile(this.root))) throw new HostError('NOT_FOUND', 'this workspace has no attribute index yet: run an index job (or `assay index`) first');
    this.#engine = this.open(this.root);
    return this.#engine;
  }

  /** After an index job: reload the open engine, or open it for the first time. Returns the documents indexed. */
  refresh(): number {
    if (this.#engine) this.#engine.reload();
    return this.engine().status().docs;
  }

  close(): void {
    this.#engine?.close();
    this.#engine = null;
  }
}
