import { asyncContextHookWarning, nodeFlags } from './async-context-frames';

/** Flushes the spans still buffered and stops exporting. */
export type StopTracing = () => Promise<void>;

/** The OTLP protocols the reconciler exports over; the first is the default, as the specification's. */
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * Starts OpenTelemetry tracing when an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the
 * traces-only `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): giro's spans (admin requests, transfer creations, bank calls,
 * sweep batches, webhook deliveries, all through `@opentelemetry/api`) are then exported over OTLP/HTTP.
 *
 * Only what tracing needs is loaded: the Node tracer provider (its AsyncLocalStorage context manager and W3C
 * `traceparent` propagation), a batch span processor and the OTLP trace exporter of the configured protocol. Not
 * the whole Node SDK: giro's metrics are Prometheus's and its logs go to stdout, and no auto-instrumentation
 * patches libraries (giro's own spans say what happened). The standard `OTEL_*` variables still apply, read by
 * the packages themselves: the exporter's endpoint, headers, timeout and compression; the sampler and its ratio
 * (`OTEL_TRACES_SAMPLER`, `…_ARG`); the batch processor's `OTEL_BSP_*`; the span limits; and the resource's
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`, beside the host and process attributes detected.
 *
 * Without an endpoint nothing is loaded (imported only here, on demand) and the API stays a no-op.
 */
export async function startTracing(env: NodeJS.ProcessEnv): Promise<StopTracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const protocol = otlpProtocol(env);
  const hookWarning = asyncContextHookWarning(process.version, nodeFlags(process.execArgv, env.NODE_OPTIONS));
  if (hookWarning !== undefined) console.warn(hookWarning);
  const [{ BatchSpanProcessor, NodeTracerProvider }, resources, exporter] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const detected = resources.detectResources({
    detectors: [resources.hostDetector, resources.processDetector, resources.envDetector],
  });
  const resource = resources
    .defaultResource()
    .merge(env.OTEL_SERVICE_NAME ? null : resources.resourceFromAttributes({ 'service.name': 'giro-reconciler' }))
    .merge(detected);
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new exporter.OTLPTraceExporter())],
  });
  provider.register();
  return () => provider.shutdown();
}

/** `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else `http/protobuf`. */
export function otlpProtocol(env: NodeJS.ProcessEnv): (typeof PROTOCOLS)[number] {
  const value = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || PROTOCOLS[0]).trim();
  const protocol = PROTOCOLS.find((known) => known === value);
  if (protocol === undefined)
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${value} is not supported: the reconciler exports traces over ${PROTOCOLS.join(' or ')}`,
    );
  return protocol;
}
