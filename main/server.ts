/**
 * The only place the desktop shell touches the server: its public entry point, nothing deeper.
 * `main/start.ts` imports this lazily (headless mode only); `main/index.ts` statically.
 */
export { runResetPassword, startServer, type RunningServer, type StartServerOptions } from '../server/index.ts';
