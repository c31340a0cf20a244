// Parquet in and out: `assay import` (Parquet → Dolma documents) and `assay export --format parquet` (documents → Parquet).
export { importOutputPath, planImport, runImport, writeImportManifest, type ImportFileSummary, type ImportOptions, type ImportSummary } from './import.js';
export { importFile, type ImportTask } from './file.js';
export { documentsIn, runExport, type ExportOptions, type ExportSummary } from './export.js';
export type { Column, ColumnKind } from './columns.js';
