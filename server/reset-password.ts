import fs from 'node:fs';
import path from 'node:path';
import { newPassword } from './contract/common.ts';
import { ConfigError, secureDataDir, settingsFromEnv } from './config.ts';
import { Stores } from './db/stores.ts';
import { resetPassword } from './features/auth/auth.service.ts';

/**
 * The data folder owner's way back into an account (locked out by someone guessing its password, or
 * the password forgotten): `npm run reset-password -- <email>` (the desktop app:
 * `personal-ledger --reset-password <email>`), run as the OS user who owns the data folder, who can
 * read every ledger file anyway. It sets a new password, ends every session of the account, and
 * lifts a login lock-out on the email at once, also in a server that is running.
 */

export interface ResetIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };
  output: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const USAGE = 'Usage: npm run reset-password -- <email>   (the data folder: LEDGER_DATA_DIR, or the app’s own)';

/** One line typed at a terminal without echoing it; Ctrl+C or Ctrl+D gives up. */
function readHidden(io: ResetIo, prompt: string): Promise<string | null> {
  io.output.write(prompt);
  const input = io.input;
  input.setRawMode?.(true);
  input.resume();
  let typed = '';
  return new Promise((resolve) => {
    const done = (value: string | null) => {
      input.removeListener('data', onData);
      input.setRawMode?.(false);
      input.pause();
      io.output.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n') return done(typed);
        if (char === '\u0003' || char === '\u0004') return done(null);
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

/** The first line of piped input (scripts): the new password. */
async function readPiped(io: ResetIo): Promise<string> {
  let text = '';
  for await (const chunk of io.input) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function readNewPassword(io: ResetIo): Promise<string | null> {
  if (!io.input.isTTY) return readPiped(io);
  const first = await readHidden(io, 'New password: ');
  if (first === null) return null;
  const again = await readHidden(io, 'The same again: ');
  if (again === null) return null;
  if (again !== first) {
    io.output.write('The two passwords differ; nothing was changed.\n');
    return null;
  }
  return first;
}

/** Runs the command with its arguments (the email); answers the exit code. */
export async function runResetPassword(args: readonly string[], io: ResetIo): Promise<number> {
  const say = (line: string) => io.output.write(`${line}\n`);
  const email = args[0]?.trim();
  if (!email || email.startsWith('-') || args.length > 1) {
    say(USAGE);
    return 2;
  }
  let stores: Stores | undefined;
  try {
    const { dataDir } = settingsFromEnv(io.env);
    if (!fs.existsSync(path.join(dataDir, 'identity.sqlite'))) {
      say(`There is no ledger data in ${dataDir}; set LEDGER_DATA_DIR to the folder the app uses.`);
      return 1;
    }
    // Only the folder's owner (never someone else, root included) may do this; its modes are tightened as on a start.
    secureDataDir(dataDir);
    say(`Setting a new password for ${email} in ${dataDir}.`);
    const password = await readNewPassword(io);
    if (password === null) {
      say('Nothing was changed.');
      return 1;
    }
    const checked = newPassword.safeParse(password);
    if (!checked.success) {
      say(`The password ${checked.error.issues[0]!.message}; nothing was changed.`);
      return 1;
    }
    stores = new Stores(dataDir);
    if (!(await resetPassword(stores.identity, email, password, 12))) {
      say(`No account has the email ${email}; nothing was changed.`);
      return 1;
    }
    say(
      `The password of ${email} is set: every session of it has ended, and a lock-out on it is lifted. Sign in with the new password.`,
    );
    return 0;
  } catch (error) {
    say(
      `Cannot set the password: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  } finally {
    stores?.close();
  }
}
