import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house's dependency rules (STYLE.md), checked on every import of every source file:
 * domain is pure, the server never imports Electron, the renderer reaches the server only
 * through its contract, and main holds no SQL.
 */

const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes('node_modules') && !f.split(path.sep).includes('dist'))
    .map((f) => path.join(dir, f));
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

function resolved(file: string, specifier: string): string {
  return specifier.startsWith('.') ? path.relative(root, path.resolve(path.dirname(file), specifier)) : specifier;
}

function violations(
  dir: string,
  rule: (target: string, file: string) => boolean,
  opts: { includeTests?: boolean } = {},
): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(path.join(root, dir))) {
    if (!opts.includeTests && /\.test\.tsx?$/.test(file)) continue;
    for (const spec of importsOf(file)) {
      const target = resolved(file, spec);
      if (rule(target, file)) out.push(`${path.relative(root, file)} -> ${spec}`);
    }
  }
  return out;
}

describe('architecture', () => {
  it('when domain code imports, then it is never I/O, a database, HTTP or another layer', () => {
    const forbidden =
      /^(node:fs|fs|node:net|node:http|express|kysely|better-sqlite3|electron|ollama)$|^server\/(db|http|features|llm)\b/;
    expect(violations('server/domain', (t) => forbidden.test(t))).toEqual([]);
  });

  it('when server code imports, then it never imports electron, main or the renderer', () => {
    expect(
      violations('server', (t) => t === 'electron' || /^(main|renderer)\//.test(t), { includeTests: true }),
    ).toEqual([]);
  });

  it('when the renderer imports from the server, then only from its contract', () => {
    expect(violations('renderer', (t) => /^server\//.test(t) && !/^server\/contract\//.test(t))).toEqual([]);
  });

  it('when main imports, then it reaches the server only through server/index and its pure config, and holds no SQL', () => {
    expect(
      violations(
        'main',
        (t) =>
          (/^server\//.test(t) && t !== 'server/index.ts' && t !== 'server/config.ts') ||
          /^(better-sqlite3|kysely)$/.test(t),
      ),
    ).toEqual([]);
  });

  it('when the contract imports, then only zod, domain and itself', () => {
    expect(violations('server/contract', (t) => !(t === 'zod' || /^server\/(contract|domain)\//.test(t)))).toEqual([]);
  });

  it('when a repository row type could leak, then no router imports a repository', () => {
    expect(
      violations('server/features', (t, file) => file.endsWith('.router.ts') && t.endsWith('.repository.ts')),
    ).toEqual([]);
  });

  it('when the job worker imports, then never a feature or the composition: features register their jobs through its port', () => {
    expect(violations('server/jobs', (t) => /^server\/features\//.test(t) || /^server\/[^/]+\.ts$/.test(t))).toEqual(
      [],
    );
  });

  it('when the server layers import each other, then their folders form no cycle (lower layers never call upward)', () => {
    const layers = ['contract', 'domain', 'db', 'http', 'jobs', 'llm', 'features'];
    const layerOf = (target: string) => /^server\/([^/]+)\//.exec(target)?.[1];
    const edges = new Map(layers.map((l) => [l, new Set<string>()]));
    for (const from of layers) {
      for (const file of sourceFiles(path.join(root, 'server', from))) {
        if (/\.test\.tsx?$/.test(file)) continue;
        for (const spec of importsOf(file)) {
          const to = layerOf(resolved(file, spec));
          if (to !== undefined && to !== from && layers.includes(to)) edges.get(from)!.add(to);
        }
      }
    }
    const reachesItself = (start: string): boolean => {
      const seen = new Set<string>();
      const stack = [...edges.get(start)!];
      for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        if (next === start) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...edges.get(next)!);
      }
      return false;
    };
    expect(layers.filter(reachesItself)).toEqual([]);
    expect(edges.get('features')).toContain('jobs'); // the check sees the features' arrow to the port
  });

  it('when the checker itself reads imports, then it sees them (a guard against a rule that cannot fail)', () => {
    expect(importsOf(path.join(root, 'server/features/journal/journal.service.ts'))).toContain('../../db/stores.ts');
    expect(violations('server/features', (t) => t === 'node:crypto').length).toBeGreaterThan(0);
  });
});
