import { describe, expect, it, vi } from 'vitest';
import { createQuitCoordinator } from './shutdown.ts';

function quitEvent(): { preventDefault: ReturnType<typeof vi.fn<() => void>> } {
  return { preventDefault: vi.fn<() => void>() };
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createQuitCoordinator', () => {
  it('when the app is asked to quit, then quitting waits until the server has closed, then quits once', async () => {
    const closing = deferred();
    const quit = vi.fn();
    const coordinator = createQuitCoordinator({
      close: () => closing.promise,
      quit,
      log: vi.fn(),
      setTimer: () => undefined,
    });
    const first = quitEvent();
    coordinator.onQuitRequested(first);
    expect(first.preventDefault).toHaveBeenCalledOnce();
    expect(quit).not.toHaveBeenCalled();
    expect(coordinator.state).toBe('closing');

    closing.resolve();
    await vi.waitFor(() => expect(quit).toHaveBeenCalledOnce());
    const second = quitEvent();
    coordinator.onQuitRequested(second);
    expect(second.preventDefault).not.toHaveBeenCalled();
    expect(coordinator.state).toBe('closed');
  });

  it('when quit is requested again while closing, then it is held and the server is closed only once', () => {
    const close = vi.fn(() => new Promise<void>(() => undefined));
    const coordinator = createQuitCoordinator({ close, quit: vi.fn(), log: vi.fn(), setTimer: () => undefined });
    coordinator.onQuitRequested(quitEvent());
    const again = quitEvent();
    coordinator.onQuitRequested(again);
    expect(again.preventDefault).toHaveBeenCalledOnce();
    expect(close).toHaveBeenCalledOnce();
  });

  it('when closing fails (or throws), then the error is logged and the app still quits', async () => {
    for (const close of [
      () => Promise.reject(new Error('disk full')),
      (): Promise<void> => {
        throw new Error('disk full');
      },
    ]) {
      const quit = vi.fn();
      const log = vi.fn();
      createQuitCoordinator({ close, quit, log, setTimer: () => undefined }).onQuitRequested(quitEvent());
      await vi.waitFor(() => expect(quit).toHaveBeenCalledOnce());
      expect(log).toHaveBeenCalledWith('Error while closing the ledger server: disk full');
    }
  });

  it('when closing hangs past the timeout, then the app quits anyway, exactly once', () => {
    let fire: (() => void) | undefined;
    const quit = vi.fn();
    const coordinator = createQuitCoordinator({
      close: () => new Promise<void>(() => undefined),
      quit,
      log: vi.fn(),
      timeoutMs: 5000,
      setTimer: (callback, ms) => {
        expect(ms).toBe(5000);
        fire = callback;
      },
    });
    coordinator.onQuitRequested(quitEvent());
    fire?.();
    fire?.();
    expect(quit).toHaveBeenCalledOnce();
  });
});
