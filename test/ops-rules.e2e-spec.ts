import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestReconciler, type TestReconciler } from './support/reconciler-harness';

// The alerting rules and the dashboard of ops/: the rules are valid for Prometheus and fire on the series they
// are meant for (promtool, from Debian's `prometheus` package), and every giro metric they name is one a running
// reconciler exports. A missing promtool fails the suite, naming what to install: a skipped check proves nothing.

const OPS = join(__dirname, '..', 'ops');
const RULES = join(OPS, 'prometheus-rules.yml');
const DASHBOARD = join(OPS, 'grafana-dashboard.json');

function promtool(args: string[]): { status: number | null; output: string } {
  const result = spawnSync('promtool', args, { cwd: OPS, encoding: 'utf8' });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error('promtool is not installed: apt-get install -y prometheus (Debian), or put promtool on PATH');
  }
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The giro metric names a file mentions (rules' expressions and annotations, the dashboard's queries). */
function giroMetricNames(path: string): string[] {
  return [...new Set(readFileSync(path, 'utf8').match(/\bgiro_[a-z0-9_]+/g) ?? [])].sort();
}

describe('ops/prometheus-rules.yml', () => {
  it('passes promtool check rules', () => {
    const result = promtool(['check', 'rules', RULES]);
    expect(result.output).toContain('SUCCESS');
    expect(result.status).toBe(0);
  });

  it('raises each alert on the series of its promtool unit test (ops/prometheus-rules.test.yml)', () => {
    const result = promtool(['test', 'rules', 'prometheus-rules.test.yml']);
    expect(result.output).toContain('SUCCESS');
    expect(result.status).toBe(0);
  });
});

describe('the metrics the rules and the dashboard name', () => {
  let reconciler: TestReconciler;
  beforeAll(async () => {
    reconciler = await startTestReconciler();
  });
  afterAll(async () => {
    await reconciler?.close();
  });

  /** The metric families of /metrics; a histogram's series (`_bucket`, `_count`, `_sum`) under their family too. */
  const exported = async (): Promise<Set<string>> => {
    const text = (await reconciler.request('GET', '/metrics')).text;
    const families = new Map<string, string>();
    for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(match[1], match[2]);
    const names = new Set(families.keys());
    for (const [name, type] of families) {
      if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${name}${suffix}`);
    }
    return names;
  };

  it.each([
    ['ops/prometheus-rules.yml', RULES],
    ['ops/grafana-dashboard.json', DASHBOARD],
  ])('are all exported by a running reconciler: %s', async (_name, path) => {
    const named = giroMetricNames(path);
    expect(named.length).toBeGreaterThan(5);
    const names = await exported();
    expect(named.filter((name) => !names.has(name))).toEqual([]);
  });

  it('are the families a reconciler exports, none left out of the dashboard', async () => {
    const onDashboard = new Set(giroMetricNames(DASHBOARD).map((name) => name.replace(/_(bucket|count|sum)$/, '')));
    const families = [...(await exported())].filter(
      (name) => name.startsWith('giro_') && !/_(bucket|count|sum)$/.test(name),
    );
    expect(families.filter((name) => !onDashboard.has(name))).toEqual([]);
  });
});
