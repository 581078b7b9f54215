// The cost of tracing per agent turn (a model call, a tool call, a second model call, through the real agent and
// the OpenAI provider over HTTP to the scripted server): without the plugin (baseline), with it but no OTEL_*
// variable (it must cost nothing: no hook registered, no SDK loaded), and with an SDK recording every span in memory.
// Run: npm run bench otel
import type { Tool } from '@aalis/api-tools';
import { startHarness } from '@aalis/plugin-agent/testing';
import { textReply, toolCallReply } from '@aalis/testing';
import { type ProxyTracerProvider, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import otelPlugin, { createOtelPlugin } from '../src/index.js';

const TURNS = Number(process.env.OTEL_BENCH_TURNS ?? 150);
const clock: Tool = {
  name: 'clock',
  description: 'time',
  parameters: { type: 'object', properties: {} },
  handler: () => '12:00',
};
for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_TRACES_EXPORTER'])
  delete process.env[name];

type Extra = NonNullable<Parameters<typeof startHarness>[0]>['extra'];

/** Whether any SDK registered a global tracer provider (the API's proxy delegates to a no-op one until then). */
const sdkStarted = () =>
  (trace.getTracerProvider() as ProxyTracerProvider).getDelegate().constructor.name !== 'NoopTracerProvider';

async function perTurnMs(extra: Extra): Promise<number> {
  const harness = await startHarness({ tools: [clock], extra });
  const turn = async (index: number) => {
    harness.server.enqueue(toolCallReply([{ id: `c${index}`, name: 'clock', arguments: {} }]), textReply('noon'));
    await harness.say(`time? ${index}`);
  };
  for (let index = 0; index < 20; index++) await turn(index);
  const started = performance.now();
  for (let index = 0; index < TURNS; index++) await turn(index);
  const ms = (performance.now() - started) / TURNS;
  await harness.close();
  return ms;
}

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('bench');
// Interleaved rounds, so that drift of the machine hits every configuration alike.
const results = { baseline: [] as number[], unconfigured: [] as number[], traced: [] as number[] };
const runs: Array<[keyof typeof results, Extra]> = [
  ['baseline', []],
  ['unconfigured', [otelPlugin]],
  ['traced', [createOtelPlugin({ tracer })]],
];
const ROUNDS = 5;
for (let round = 0; round < ROUNDS; round++) {
  // Rotated order, so that drift of the (shared) machine hits every configuration alike.
  for (let index = 0; index < runs.length; index++) {
    const [name, extra] = runs[(index + round) % runs.length]!;
    results[name].push(await perTurnMs(extra));
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const base = median(results.baseline);
console.log(`per turn (median of ${ROUNDS} rounds of ${TURNS} turns; 2 model calls + 1 tool call each):`);
console.log(`  without the plugin (baseline)      ${base.toFixed(3)} ms  1.00×`);
const unconfigured = median(results.unconfigured);
console.log(`  plugin, no OTEL_* variable         ${unconfigured.toFixed(3)} ms  ${(unconfigured / base).toFixed(2)}×`);
const traced = median(results.traced);
console.log(`  plugin, in-memory SDK (4 spans)    ${traced.toFixed(3)} ms  ${(traced / base).toFixed(2)}×`);
console.log(
  `  spans recorded: ${exporter.getFinishedSpans().length}; a global SDK started by the unconfigured plugin: ${sdkStarted() ? 'yes' : 'no'}`,
);
