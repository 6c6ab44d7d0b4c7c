import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compilePreloadSource, ensurePreload } from './preload-build.ts';
import { OPEN_EXTERNAL_CHANNEL, VERSION_ARGUMENT_PREFIX } from './security.ts';

const mainDir = path.dirname(fileURLToPath(import.meta.url));

interface LoadedPreload {
  exposed: Map<string, unknown>;
  invoke: ReturnType<typeof vi.fn>;
  requested: string[];
}

/** Runs the compiled preload the way a sandboxed renderer does: a classic script with a restricted require. */
async function loadPreload(argv: string[]): Promise<LoadedPreload> {
  const code = compilePreloadSource(await readFile(path.join(mainDir, 'preload.ts'), 'utf8'));
  const exposed = new Map<string, unknown>();
  const invoke = vi.fn(async () => true);
  const requested: string[] = [];
  const fakeRequire = (name: string): unknown => {
    requested.push(name);
    if (name !== 'electron') throw new Error(`module not found: ${name}`);
    return {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
      ipcRenderer: { invoke },
    };
  };
  const wrapper = vm.runInNewContext(`(function (require, process) {\n${code}\n})`, {}) as (
    r: unknown,
    p: unknown,
  ) => void;
  wrapper(fakeRequire, { argv });
  return { exposed, invoke, requested };
}

describe('preload', () => {
  it('when compiled, then it is a classic script without import/export (as a sandboxed preload must be)', async () => {
    const code = compilePreloadSource(await readFile(path.join(mainDir, 'preload.ts'), 'utf8'));
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(() => new vm.Script(code)).not.toThrow();
  });

  it('when loaded, then only "electron" is required and only ledgerDesktop is exposed, with exactly version and openExternal', async () => {
    const { exposed, requested } = await loadPreload(['/electron', `${VERSION_ARGUMENT_PREFIX}1.2.3`]);
    expect(requested).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['ledgerDesktop']);
    const api = exposed.get('ledgerDesktop') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['openExternal', 'version']);
    expect(api.version).toBe('1.2.3');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('when openExternal is called, then it invokes the one channel main handles, with the URL only', async () => {
    const { exposed, invoke } = await loadPreload([]);
    const api = exposed.get('ledgerDesktop') as { openExternal(url: unknown): Promise<boolean>; version: string };
    await expect(api.openExternal('https://example.com')).resolves.toBe(true);
    expect(invoke).toHaveBeenCalledExactlyOnceWith(OPEN_EXTERNAL_CHANNEL, 'https://example.com');
    await expect(api.openExternal({ toString: () => 'https://example.com' })).resolves.toBe(false);
    expect(invoke).toHaveBeenCalledOnce();
    expect(api.version).toBe('');
  });

  it('when a preload source uses import/export, then compiling it fails', () => {
    expect(() => compilePreloadSource("import { x } from 'electron';\n")).toThrow(/classic scripts/);
    expect(() => compilePreloadSource('export const a: number = 1;\n')).toThrow(/classic scripts/);
  });
});

describe('ensurePreload', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ledger-preload-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when a built preload.cjs sits next to main (packaged app), then it is used as is', async () => {
    await writeFile(path.join(dir, 'preload.cjs'), '// built');
    expect(ensurePreload(dir, path.join(dir, 'out'))).toBe(path.join(dir, 'preload.cjs'));
  });

  it('when running from source, then preload.ts is compiled into the dev output folder', async () => {
    await writeFile(path.join(dir, 'preload.ts'), 'const n: number = 1;\n');
    const out = ensurePreload(dir, path.join(dir, 'out'));
    expect(out).toBe(path.join(dir, 'out', 'preload.cjs'));
    expect((await readFile(out, 'utf8')).trim()).toMatch(/^const n\s*=\s*1;$/);
  });

  it('when neither exists, then it fails with a clear message', () => {
    expect(() => ensurePreload(dir, path.join(dir, 'out'))).toThrow(/No preload found/);
  });
});
