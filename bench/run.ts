/**
 * `npm run bench`: performance figures, printed (never asserted). The benchmark suite arrives with
 * the performance issue; until then this says so plainly rather than printing invented numbers.
 */
console.log('no benchmarks yet');
