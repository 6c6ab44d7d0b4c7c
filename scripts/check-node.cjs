/**
 * The Node.js this project needs: package.json "engines.node" (">=22.18"). Plain CommonJS that every
 * Node.js can read, so that a too-old Node says so in one line instead of a stack trace.
 *
 * - `node -r ./scripts/check-node.cjs <entry>` (the npm scripts): exits 1 with one line on stderr when
 *   this Node is too old, before the entry (TypeScript, which Node 20 cannot load) is read.
 * - `node scripts/check-node.cjs --quiet` (./npmw): exit status only, 0 when this Node is new enough.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const range = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
const wanted = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range);
if (wanted === null) throw new Error(`package.json engines.node must read ">=X.Y.Z", not "${range}"`);

const need = wanted.slice(1).map((part) => Number(part ?? 0));
const have = process.versions.node.split('.').map(Number);
/** Version arrays as one comparable number each (minor and patch stay below 10,000). */
const rank = (/** @type {number[]} */ v) => ((v[0] ?? 0) * 1e4 + (v[1] ?? 0)) * 1e4 + (v[2] ?? 0);
const newEnough = rank(have) >= rank(need);

if (!newEnough) {
  if (!process.argv.includes('--quiet')) {
    const wantedText = range.replace(/^>=\s*/, '');
    process.stderr.write(
      `Personal Ledger needs Node.js ${wantedText} or newer (this is ${process.versions.node}): ` +
        'run ./npmw <command> instead of npm <command>, which brings Node.js 22 from the npm registry, ' +
        `or install Node.js ${wantedText} or newer yourself.\n`,
    );
  }
  process.exit(1);
}
