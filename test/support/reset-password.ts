import { spawn } from 'node:child_process';
import path from 'node:path';

const CLI = path.join(import.meta.dirname, '..', '..', 'server', 'cli.ts');

/** `node server/cli.ts reset-password <args>` with `input` piped in; its exit code and output. */
export function resetPassword(
  dataDir: string,
  args: string[],
  input: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'reset-password', ...args], {
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
