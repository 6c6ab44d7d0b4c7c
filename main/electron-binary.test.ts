import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary, nodeBinaryLookup, type BinaryLookup } from './electron-binary.ts';

const PKG = '/app/node_modules/electron';

function lookup(
  files: Record<string, string>,
  env: Record<string, string> = {},
  electronPackageDir: string | null = PKG,
): BinaryLookup {
  return {
    electronPackageDir,
    env,
    readText: (file) => files[file] ?? null,
    isFile: (file) => file in files,
  };
}

describe('findElectronBinary', () => {
  it('when path.txt names a binary that exists in dist/, then that binary is used', () => {
    const files = { [path.join(PKG, 'path.txt')]: 'electron', [path.join(PKG, 'dist', 'electron')]: '' };
    expect(findElectronBinary(lookup(files))).toBe(path.join(PKG, 'dist', 'electron'));
  });

  it('when the package was installed offline (no path.txt, no dist/), then there is no binary', () => {
    expect(findElectronBinary(lookup({}))).toBeNull();
  });

  it('when path.txt exists but the binary was deleted, then there is no binary (and nothing is downloaded)', () => {
    expect(findElectronBinary(lookup({ [path.join(PKG, 'path.txt')]: 'electron' }))).toBeNull();
  });

  it('when the electron package is not installed at all, then there is no binary', () => {
    expect(findElectronBinary(lookup({}, {}, null))).toBeNull();
  });

  it('when ELECTRON_OVERRIDE_DIST_PATH points at a binary, then it is used', () => {
    const files = { [path.join('/opt/electron', 'electron')]: '' };
    expect(findElectronBinary(lookup(files, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' }, null))).toBe(
      path.join('/opt/electron', 'electron'),
    );
  });

  it('when ELECTRON_OVERRIDE_DIST_PATH points nowhere, then there is no binary', () => {
    expect(findElectronBinary(lookup({}, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/none' }))).toBeNull();
  });

  it('when run against this checkout, then the answer matches what is on disk and nothing throws', () => {
    const real = nodeBinaryLookup({}, import.meta.url);
    expect(real.electronPackageDir).not.toBeNull();
    const found = findElectronBinary(real);
    expect(found === null || real.isFile(found)).toBe(true);
  });
});
