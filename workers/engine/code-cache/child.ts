// Entry of a pool worker or job process (dist/engine/cached-child.js): runs its CommonJS bundle, argv[2], through V8's code cache.
import { basename, dirname, resolve } from 'node:path';
import { cacheDirFor, runCached } from './run-cached.js';

// The bundle sees the command line it would have had if forked directly.
const [arg] = process.argv.splice(2, 1);
if (arg === undefined) throw new Error('cached-child: no bundle given');
const bundle = resolve(arg);
runCached(bundle, cacheDirFor(dirname(bundle)), basename(bundle, '.cjs'));
