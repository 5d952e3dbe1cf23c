/**
 * The product's import graph (docs/architecture.md#imports): no circle of imports, `import type`
 * included (lint's no-cycle lets those through, and each one hides which module needs which), and
 * nothing the product runs reaches into the development folders (scripts/, bench/, test/).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';

/** The folders of what plat runs. */
const PRODUCT_DIRS = ['activities', 'domain', 'gateway', 'schedules', 'shared', 'workers', 'workflows'];
/** Copied to users as their own code (domain/pipeline/). */
const NOT_PRODUCT = [path.join('domain', 'pipeline', 'template')];
const DEVELOPMENT_DIRS = ['scripts', 'bench', 'test'];

function productFiles(): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    if (NOT_PRODUCT.includes(rel)) return;
    for (const entry of fs.readdirSync(path.join(repoRoot, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (/\.(?:ts|cjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(child);
    }
  };
  PRODUCT_DIRS.forEach(walk);
  return files;
}

/** What a file imports, re-exports or requires by a relative path, resolved to files of the tree. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gms),
    ...text.matchAll(/\brequire\(\s*'(\.[^']+)'\s*\)/g),
    ...text.matchAll(/^\s*import\s+'(\.[^']+)'/gm),
  ].map((m) => m[1]);
  return specifiers.flatMap((s) => {
    const base = path.normalize(path.join(path.dirname(file), s));
    const found = [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')].find((candidate) => {
      const full = path.join(repoRoot, candidate);
      return fs.existsSync(full) && fs.statSync(full).isFile();
    });
    return found ? [found] : [];
  });
}

/** The circles of a graph: its strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the import graph of the product', () => {
  const graph = new Map(productFiles().map((f) => [f, importsOf(f)]));

  it('reads the imports it checks (a known edge of each kind is there)', () => {
    expect(graph.get(path.join('domain', 'memory', 'search', 'rerank-stage.ts'))).toContain(
      path.join('domain', 'memory', 'search', 'query-plan.ts'),
    );
    expect(graph.size).toBeGreaterThan(300);
  });

  it('has no circle of imports, type imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle where there is one', () => {
    const made = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(made)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('imports nothing from the development folders', () => {
    const reaching = [...graph].flatMap(([file, imports]) =>
      imports.filter((i) => DEVELOPMENT_DIRS.includes(i.split(path.sep)[0])).map((i) => `${file} -> ${i}`),
    );
    expect(reaching).toEqual([]);
  });
});
