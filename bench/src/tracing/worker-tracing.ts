import { dirname, join } from 'node:path';

/** The OpenTelemetry SDK a bench worker runs, as the reconciler starts it. */
export interface WorkerTracing {
  /** Exports every span ended so far (so that a measured run pays for exporting its own spans, and only those). */
  flush(): Promise<void>;
  /**
   * Runs `work` with tracing suppressed (OpenTelemetry's own switch, which the SDK's tracer reads): its spans are
   * non-recording, as a trace the sampler left out, while the SDK and its context manager stay as they were.
   */
  suppressed<T>(work: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** What is used here of `@opentelemetry/api`: the global provider, a proxy whose delegate is the SDK's. */
interface OpenTelemetryApi {
  trace: { getTracerProvider(): { getDelegate?(): { forceFlush?(): Promise<void> } } };
  context: {
    active(): { setValue(key: symbol, value: unknown): unknown };
    with<T>(context: unknown, work: () => T): T;
  };
  createContextKey(description: string): symbol;
}

/** The context key of `suppressTracing` in `@opentelemetry/core` (API context keys are `Symbol.for` their name). */
const SUPPRESS_TRACING = 'OpenTelemetry SDK Context Key SUPPRESS_TRACING';

/**
 * Starts tracing in this worker with the reconciler's own code (`startTracing` of `apps/reconciler/dist`, what
 * `giro-reconciler` runs when `OTEL_EXPORTER_OTLP_ENDPOINT` is set), configured by the standard variables in
 * `otelEnv`, which the SDK reads from the process's environment.
 */
export async function startWorkerTracing(otelEnv: Record<string, string>): Promise<WorkerTracing> {
  Object.assign(process.env, otelEnv);
  const reconciler = dirname(require.resolve('@giro/reconciler/package.json'));
  const { startTracing } = require(join(reconciler, 'dist', 'ops', 'tracing.js')) as {
    startTracing(env: NodeJS.ProcessEnv): Promise<(() => Promise<void>) | undefined>;
  };
  const stop = await startTracing(process.env);
  if (stop === undefined) throw new Error('tracing did not start: OTEL_EXPORTER_OTLP_ENDPOINT is missing');
  // The API copy the reconciler's SDK registered with, to reach the SDK's provider.
  const api = require(require.resolve('@opentelemetry/api', { paths: [reconciler] })) as OpenTelemetryApi;
  const provider = api.trace.getTracerProvider().getDelegate?.();
  const forceFlush = provider?.forceFlush?.bind(provider);
  if (forceFlush === undefined) throw new Error('tracing started, but no SDK tracer provider is registered');
  const suppress = api.createContextKey(SUPPRESS_TRACING);
  return {
    flush: forceFlush,
    suppressed: (work) => api.context.with(api.context.active().setValue(suppress, true), work),
    stop,
  };
}
