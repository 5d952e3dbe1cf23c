/**
 * The offline analyst holds its own PRD to the PRD's rules before anyone sees it, and mends what a
 * source's shape made it break (docs/offline-analyst.md#a-prd-that-is-always-valid): two tables,
 * metrics or dashboards of one name get distinct, readable names; a metric on an ADS table that is not
 * there, a dashboard's metric that is not there, a breakdown without its dimension and a dashboard left
 * without metrics are dropped. What still breaks a rule after that is a bug, reported as one.
 */
import { layerNames, prdSchema, type Prd } from '../../../shared/prd-schema';

/** The PRD, mended where it broke the PRD's rules, and validated. */
export function validOfflinePrd(prd: Prd): Prd {
  const mended = mend(prd);
  const checked = prdSchema.safeParse(mended);
  if (checked.success) return checked.data;
  const issues = checked.error.issues.slice(0, 10).map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new Error(`the offline analyst wrote a PRD it cannot mend: ${issues.join('; ')}`);
}

function mend(prd: Prd): Prd {
  const layers = { ...prd.layers };
  for (const layer of layerNames) {
    const names = distinctNames(layers[layer].map((t) => t.name));
    layers[layer] = layers[layer].map((t, i) => ({ ...t, name: names[i] }));
  }
  const adsTables = new Set(layers.ads.map((t) => t.name));
  const metricsKept = prd.metrics.filter(
    (m) => adsTables.has(m.ads_table) && (m.kind !== 'breakdown' || m.dimension),
  );
  const metricNames = distinctNames(metricsKept.map((m) => m.name));
  const metrics = metricsKept.map((m, i) => ({ ...m, name: metricNames[i] }));
  const known = new Set(metrics.map((m) => m.name));
  const dashboards = prd.dashboards
    .map((d) => ({ ...d, metrics: [...new Set(d.metrics.filter((m) => known.has(m)))] }))
    .filter((d) => d.metrics.length > 0);
  const titles = distinctTitles(dashboards.map((d) => d.title));
  return {
    ...prd,
    layers,
    metrics,
    dashboards: dashboards.map((d, i) => ({ ...d, title: titles[i] })),
  };
}

/** The names with each repeat suffixed `_2`, `_3`… (the first keeps its name), within 63 characters. */
function distinctNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name.slice(0, 60 - String(n).length)}_${n}`;
    taken.add(candidate);
    return candidate;
  });
}

/** Titles with each repeat numbered: `Sales (2)`. */
function distinctTitles(titles: string[]): string[] {
  const taken = new Set<string>();
  return titles.map((title) => {
    let candidate = title;
    for (let n = 2; taken.has(candidate); n++) candidate = `${title} (${n})`;
    taken.add(candidate);
    return candidate;
  });
}
