/**
 * Whether this Node keeps AsyncLocalStorage's values in async context frames (V8's continuation data) instead of an
 * async hook run on every promise: by default from Node 24 (`--no-async-context-frame` turns it off), behind
 * `--experimental-async-context-frame` from Node 22.7. `flags` are the process's `execArgv` and `NODE_OPTIONS`.
 */
export function asyncContextFrames(nodeVersion: string, flags: readonly string[]): boolean {
  if (flags.includes('--no-async-context-frame')) return false;
  return (
    Number(nodeVersion.replace(/^v/, '').split('.')[0]) >= 24 || flags.includes('--experimental-async-context-frame')
  );
}

/**
 * The start-up warning of a traced process whose Node runs the context manager's hook on every promise: that hook,
 * beside the spans, is a large part of what tracing costs per transfer there (docs/tracing.md, "What it costs").
 */
export function asyncContextHookWarning(nodeVersion: string, flags: readonly string[]): string | undefined {
  if (asyncContextFrames(nodeVersion, flags)) return undefined;
  return `WARNING: tracing on Node ${nodeVersion}: OpenTelemetry's context manager (an AsyncLocalStorage) runs a hook on every promise, a large part of tracing's CPU per transfer; Node 24, or Node 22 with --experimental-async-context-frame, carries the context without it (docs/tracing.md)`;
}

/** The flags a process was started with: its command line's and `NODE_OPTIONS`'. */
export function nodeFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/).filter((flag) => flag !== '')];
}
