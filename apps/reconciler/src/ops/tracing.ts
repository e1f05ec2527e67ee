/** Flushes the spans still buffered and stops exporting. */
export type StopTracing = () => Promise<void>;

/**
 * Starts the OpenTelemetry Node SDK when an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the
 * traces-only `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): giro's spans (admin requests, transfer creations, bank calls,
 * sweep batches, webhook deliveries, all through `@opentelemetry/api`) are then exported over OTLP. The SDK reads
 * the standard `OTEL_*` variables itself: `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf`, the default, or
 * `http/json`), `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`…
 * No auto-instrumentation is loaded: giro's own spans say what happened, without patching libraries. Traces
 * only: giro's metrics are Prometheus's and its logs go to stdout, so the SDK's OTLP metrics exporter and logs
 * pipeline, which it would start by default, are not.
 *
 * Without an endpoint nothing is loaded (the SDK is imported only here, on demand) and the API stays a no-op.
 */
export async function startTracing(env: NodeJS.ProcessEnv): Promise<StopTracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME === undefined && { serviceName: 'giro-reconciler' }),
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return () => sdk.shutdown();
}
