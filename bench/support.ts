// Shared pieces of the benchmarks, one import for every bench: a Beekeeper (api + worker) on the simulator with its
// own Redis prefix (bed.ts), bulk object creation through the API double (adopt.ts), and timing, medians and the
// one-line result each bench prints for bench/run.ts to collect (figures.ts).
export * from './adopt.js';
export * from './bed.js';
export * from './figures.js';
