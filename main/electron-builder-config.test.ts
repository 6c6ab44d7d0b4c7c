/**
 * Validates electron-builder.yml offline, with the JSON schema electron-builder itself validates
 * against (app-builder-lib/scheme.json, same validator: ajv), and pins the choices that matter.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// js-yaml is electron-builder's own YAML reader (a dependency of app-builder-lib); it ships no types.
const yaml = require('js-yaml') as { load(text: string): unknown };

type Config = Record<string, unknown> & {
  electronFuses?: Record<string, boolean>;
  asarUnpack?: string[];
  files?: string[];
  extraMetadata?: { main?: string };
  directories?: { output?: string };
};

const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Config;
const schemaFile = path.join(path.dirname(require.resolve('app-builder-lib/package.json')), 'scheme.json');
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
// The options electron-builder itself compiles the schema with (app-builder-lib/out/util/config/schemaValidator.js),
// minus coerceTypes: a "true" string where a boolean belongs should fail here.
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

function targetsOf(platform: string): string[] {
  const section = config[platform] as { target?: unknown } | undefined;
  const target = section?.target;
  const list = Array.isArray(target) ? target : [target];
  return list.map((entry) => (typeof entry === 'string' ? entry : (entry as { target: string }).target));
}

function platformFiles(platform: string): string[] {
  return ((config[platform] as { files?: string[] } | undefined)?.files ?? [])
    .filter((p) => p.startsWith('!'))
    .map((p) => p.slice(1));
}

describe('electron-builder.yml', () => {
  it("when validated against electron-builder's JSON schema, then it has no errors", () => {
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('when a misspelt or mistyped option is added, then the same schema rejects it (the check is real)', () => {
    expect(validate({ ...config, npmRebuilt: false })).toBe(false);
    expect(validate({ ...config, asarUnpack: 42 })).toBe(false);
  });

  it('when read, then the app identity is Personal Ledger', () => {
    expect(config.appId).toBe('app.personal-ledger');
    expect(config.productName).toBe('Personal Ledger');
  });

  it('when read, then Linux builds AppImage and deb, macOS a dmg and Windows an NSIS installer', () => {
    expect(targetsOf('linux').sort()).toEqual(['AppImage', 'deb']);
    expect(targetsOf('mac')).toEqual(['dmg']);
    expect(targetsOf('win')).toEqual(['nsis']);
  });

  it('when packaged, then better-sqlite3 and every .node addon are unpacked from the asar archive', () => {
    const unpack = config.asarUnpack ?? [];
    expect(unpack).toContain('**/node_modules/better-sqlite3/**');
    expect(unpack.some((pattern) => pattern.endsWith('*.node'))).toBe(true);
    for (const file of [
      'node_modules/better-sqlite3/prebuilds/linux-x64.node',
      'node_modules/better-sqlite3/lib/binding.js',
      'node_modules/some-other-addon/build/Release/addon.node',
    ]) {
      expect(
        unpack.some((pattern) => minimatch(file, pattern, { dot: true })),
        file,
      ).toBe(true);
    }
  });

  it('when packaged, then native modules are not rebuilt (N-API prebuilt binaries load in Node and Electron)', () => {
    expect(config.npmRebuild).toBe(false);
    const better = JSON.parse(readFileSync(require.resolve('better-sqlite3/package.json'), 'utf8')) as {
      gypfile?: boolean;
      files?: string[];
    };
    expect(better.files).toContain('prebuilds/**');
  });

  it('when packaged, then compiled code, the renderer, migrations and package.json are shipped', () => {
    const files = config.files ?? [];
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'dist/**/*', 'renderer/dist/**/*', 'migrations/**/*']),
    );
    expect(config.extraMetadata?.main).toBe('dist/main/index.js');
    expect(config.directories?.output).not.toBe('dist');
  });

  it('when packaged, then the fuses are set: no running as Node, no NODE_OPTIONS, no inspector, the app only from its asar and that asar checked', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    expect(config.asar).toBe(true);
    // the schema knows every fuse named here: a misspelt one fails validation
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } })).toBe(false);
  });

  it('when a platform drops foreign better-sqlite3 binaries, then its own binaries are never dropped', () => {
    const own: Record<string, string[]> = {
      linux: ['linux-x64', 'linux-arm64', 'linuxmusl-x64', 'linuxmusl-arm64'],
      mac: ['darwin-x64', 'darwin-arm64'],
      win: ['win32-x64', 'win32-arm64'],
    };
    for (const [platform, names] of Object.entries(own)) {
      const excluded = platformFiles(platform);
      expect(excluded.length, platform).toBeGreaterThan(0);
      for (const name of names) {
        const file = `node_modules/better-sqlite3/prebuilds/${name}.node`;
        expect(
          excluded.some((pattern) => minimatch(file, pattern)),
          `${platform} keeps ${name}`,
        ).toBe(false);
      }
      const foreign = Object.entries(own)
        .filter(([other]) => other !== platform)
        .flatMap(([, list]) => list);
      for (const name of foreign) {
        const file = `node_modules/better-sqlite3/prebuilds/${name}.node`;
        expect(
          excluded.some((pattern) => minimatch(file, pattern)),
          `${platform} drops ${name}`,
        ).toBe(true);
      }
    }
  });
});
