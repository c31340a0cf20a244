// Growth check shared by the reliability tests: time on 1 MB against a hundred 10 KB inputs (same total work).

/**
 * T(one 1 MB input) / T(a hundred distinct 10 KB inputs), best of `rounds` interleaved measurements.
 * Linear code gives about 1 (up to ~3 in a test fork on a loaded machine: GC of the larger
 * values), one quadratic step about 100; a bound of 3 is a 10 KB → 1 MB time ratio of 300.
 * Interleaving and taking the best of each side keeps preemption by other processes out of it.
 */
export function growthRatio(make: (chars: number) => string, run: (input: string) => unknown, rounds = 3): number {
  // A hundred distinct small inputs, as many bytes as the large one: the same ten kilobytes run a hundred
  // times stay in the CPU's caches while one megabyte does not, which made V8's own JSON.parse "grow" 5x on
  // one machine with no superlinear step anywhere.
  const smalls = Array.from({ length: 100 }, () => make(10_000));
  const large = make(1_000_000);
  // Warm every input first: the first runs also pay for growing the heap and flattening strings.
  for (const small of smalls) run(small);
  run(large);
  let s = Infinity;
  let l = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const small of smalls) run(small);
    const t1 = performance.now();
    run(large);
    const t2 = performance.now();
    s = Math.min(s, t1 - t0);
    l = Math.min(l, t2 - t1);
  }
  return l / Math.max(s, 1);
}
