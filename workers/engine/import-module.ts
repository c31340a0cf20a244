// import() of a package or file URL that also works inside the .cjs bundles run as a vm.Script from V8's code cache (code-cache/).
// Why: on Node 20 an import() evaluated in a vm.Script throws without --experimental-vm-modules; runCached puts its
// own import() (a real ES module's) on globalThis, and every dynamic import of something outside the bundle goes
// through here. Relative imports of our own modules stay plain import(): esbuild bundles those.

type Importer = (specifier: string) => Promise<unknown>;

/** Loads `specifier` (a bare package specifier or a file: URL) as an ES module. */
export function importModule<T = Record<string, unknown>>(specifier: string): Promise<T> {
  const viaLoader = (globalThis as { __assayImport?: Importer }).__assayImport;
  // eslint-disable-next-line no-restricted-syntax -- the one place a non-relative import() may be written
  return (viaLoader !== undefined ? viaLoader(specifier) : import(specifier)) as Promise<T>;
}
