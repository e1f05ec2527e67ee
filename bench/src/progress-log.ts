import { performance } from 'node:perf_hooks';

/** A progress line on stderr (stdout carries the report), with the seconds since `started` (performance.now()). */
export function progressLog(started: number): (message: string) => void {
  return (message) => {
    process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
  };
}
