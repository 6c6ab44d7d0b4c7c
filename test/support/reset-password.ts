import { spawn } from 'node:child_process';
import { ROOT, scriptArguments } from '../../main/app-build.mjs';

/** `npm run reset-password -- <args>` (its node command) with `input` piped in; its exit code and output. */
export function resetPassword(
  dataDir: string,
  args: string[],
  input: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArguments('reset-password'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LEDGER_DATA_DIR: dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}
