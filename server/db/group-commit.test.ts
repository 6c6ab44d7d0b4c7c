import { describe, expect, it, vi } from 'vitest';
import { countedDisk, groupedDb, loopClock, settled, turn } from '../../test/support/grouped-db.ts';
import { DomainError } from '../domain/errors.ts';
import { eventLoopIdleMs } from './group-commit.ts';

describe('grouped writes (group commit)', () => {
  it('when several writes are made in the same turn of the event loop, then they commit in one transaction, and each is answered only once it is committed', async () => {
    const g = groupedDb();
    try {
      const writes = [1, 2, 3, 4, 5].map((id) => g.db.write('group-commit', g.insert(id)));
      const states = writes.map(settled);
      // written but not committed: nobody else sees them, and nobody is answered
      expect(g.visible()).toBe(0);
      await Promise.resolve();
      expect(states.some((s) => s.done)).toBe(false);
      await Promise.all(writes);
      expect(g.visible()).toBe(5);
      expect(g.commits.n).toBe(1);
    } finally {
      g.close();
    }
  });

  it('when one write of a group throws, then it alone is undone and refused at once, and the others commit', async () => {
    const g = groupedDb();
    try {
      const first = g.db.write('group-commit', g.insert(1));
      const bad = g.db.write('group-commit', () => {
        g.insert(2)();
        throw new DomainError('UNBALANCED', 'refused');
      });
      const last = g.db.write('group-commit', g.insert(3));
      await expect(bad).rejects.toMatchObject({ code: 'UNBALANCED' });
      await Promise.all([first, last]);
      expect(g.db.allSql<{ id: bigint }>('SELECT id FROM things ORDER BY id').map((r) => Number(r.id))).toEqual([1, 3]);
      expect(g.commits.n).toBe(1);
    } finally {
      g.close();
    }
  });

  it('when a write is made and answered before the next one comes, then each commits on its own at the end of its turn, waiting for no timer', async () => {
    const g = groupedDb();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (let id = 1; id <= 4; id++) {
        // fake timers never fire unless advanced: an answer that needed one would never come
        await g.db.write('group-commit', g.insert(id));
        expect(g.visible()).toBe(id);
      }
      expect(g.commits.n).toBe(4);
    } finally {
      vi.useRealTimers();
      g.close();
    }
  });

  it('when groups of several writes came before, then the next group waits for as many, and commits as soon as they are there', async () => {
    const g = groupedDb();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await Promise.all([1, 2, 3].map((id) => g.db.write('group-commit', g.insert(id))));
      expect(g.commits.n).toBe(1);
      // the first of the next three: it waits for company (a timer that does not fire here)
      const early = settled(g.db.write('group-commit', g.insert(4)));
      await turn();
      await turn();
      expect(early.done).toBe(false);
      expect(g.visible()).toBe(3);
      // the rest come back: the group is complete and commits at the end of this turn
      await Promise.all([g.db.write('group-commit', g.insert(5)), g.db.write('group-commit', g.insert(6))]);
      expect(early.done).toBe(true);
      expect(g.visible()).toBe(6);
      expect(g.commits.n).toBe(2);
      // and when the company does not come, the wait ends
      const alone = settled(g.db.write('group-commit', g.insert(7)));
      await turn();
      expect(alone.done).toBe(false);
      vi.runOnlyPendingTimers();
      await turn();
      expect(alone.done).toBe(true);
      expect(g.visible()).toBe(7);
    } finally {
      vi.useRealTimers();
      g.close();
    }
  });

  it('when the connection is read, or written outside the group, while a group is open, then the group is committed first: nobody sees its writes before they are durable', async () => {
    const g = groupedDb();
    try {
      const written = g.db.write('group-commit', g.insert(1));
      expect(g.visible()).toBe(0);
      // a read on the same connection (another request's) commits the group before it runs
      expect(g.db.allSql('SELECT * FROM things')).toHaveLength(1);
      expect(g.visible()).toBe(1);
      await written;
      const again = g.db.write('group-commit', g.insert(2));
      g.db.transaction(() => g.insert(3)());
      expect(g.visible()).toBe(3);
      await again;
      // the two groups' commits (the plain transaction commits by a statement of its own)
      expect(g.commits.n).toBe(2);
    } finally {
      g.close();
    }
  });

  it('when a head write (a batch) comes while a group is open, then that group commits first, the head heads a group of its own, and writes after it join that', async () => {
    const g = groupedDb();
    try {
      const before = g.db.write('group-commit', g.insert(1));
      const head = g.db.write(
        'group-commit',
        () => {
          // what the earlier group wrote is committed: another connection sees it
          expect(g.visible()).toBe(1);
          g.insert(2)();
          g.insert(3)();
        },
        { head: true },
      );
      const after = g.db.write('group-commit', g.insert(4));
      expect(g.visible()).toBe(1);
      await Promise.all([before, head, after]);
      expect(g.visible()).toBe(4);
      expect(g.commits.n).toBe(2);
    } finally {
      g.close();
    }
  });

  it('when a head write throws, then all it wrote is undone and it alone is refused, and the next write opens a group of its own', async () => {
    const g = groupedDb();
    try {
      const before = g.db.write('group-commit', g.insert(1));
      const head = g.db.write(
        'group-commit',
        () => {
          g.insert(2)();
          throw new DomainError('UNBALANCED', 'refused');
        },
        { head: true },
      );
      await expect(head).rejects.toMatchObject({ code: 'UNBALANCED' });
      expect(g.db.sqlite.inTransaction).toBe(false);
      await before;
      await g.db.write('group-commit', g.insert(3));
      expect(g.db.allSql<{ id: bigint }>('SELECT id FROM things ORDER BY id').map((r) => Number(r.id))).toEqual([1, 3]);
      expect(g.commits.n).toBe(2);
    } finally {
      g.close();
    }
  });

  it('when the group cannot be committed, then every write of it is refused and none is stored', async () => {
    const g = groupedDb();
    try {
      const exec = g.db.sqlite.exec.bind(g.db.sqlite);
      let fail = true;
      g.db.sqlite.exec = (sql: string) => {
        if (sql === 'COMMIT' && fail) {
          fail = false;
          throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        }
        return exec(sql);
      };
      const writes = [1, 2].map((id) => g.db.write('group-commit', g.insert(id)));
      for (const w of writes) await expect(w).rejects.toMatchObject({ code: 'SQLITE_FULL' });
      expect(g.db.allSql('SELECT * FROM things')).toEqual([]);
      await g.db.write('group-commit', g.insert(3));
      expect(g.visible()).toBe(1);
    } finally {
      g.close();
    }
  });

  it('when a group commits, then its writes are answered only after a sync of the WAL begun after the commit has ended, and the thread does not wait for it', async () => {
    const sync = countedDisk({ held: true });
    const g = groupedDb(sync.disk);
    try {
      const writes = [1, 2].map((id) => settled(g.db.write('group-commit', g.insert(id))));
      await turn();
      // committed (another connection sees it), the sync running off the thread, nobody answered
      expect(g.visible()).toBe(2);
      expect(sync.counts).toEqual({ background: 1, now: 0 });
      await turn();
      expect(writes.some((w) => w.done)).toBe(false);
      // every other commit of the connection still syncs inside SQLite
      expect(g.db.sqlite.pragma('synchronous', { simple: true })).toBe(2);
      sync.release();
      await turn();
      expect(writes.every((w) => w.done && w.error === undefined)).toBe(true);
    } finally {
      while (sync.running() > 0) sync.release();
      g.close();
    }
  });

  it('when groups commit while a sync is running, then they wait for the next one, which covers them all', async () => {
    const sync = countedDisk({ held: true });
    const g = groupedDb(sync.disk);
    try {
      const first = settled(g.db.write('group-commit', g.insert(1)));
      await turn();
      const second = settled(g.db.write('group-commit', g.insert(2)));
      await turn();
      const third = settled(g.db.write('group-commit', g.insert(3)));
      await turn();
      expect(g.commits.n).toBe(3);
      expect(sync.counts.background).toBe(1);
      sync.release();
      await turn();
      expect([first.done, second.done, third.done]).toEqual([true, false, false]);
      // one sync for the two groups committed meanwhile
      expect(sync.counts.background).toBe(2);
      sync.release();
      await turn();
      expect([second.done, third.done]).toEqual([true, true]);
    } finally {
      while (sync.running() > 0) sync.release();
      g.close();
    }
  });

  it('when the connection is read or written outside a group while groups wait for their sync, then they are synced at once before it: nothing is read from a write that is not durable', async () => {
    const sync = countedDisk({ held: true });
    const g = groupedDb(sync.disk);
    try {
      // one group whose sync is still running: a read syncs first all the same
      const first = settled(g.db.write('group-commit', g.insert(1)));
      await turn();
      expect(sync.counts).toEqual({ background: 1, now: 0 });
      expect(g.db.allSql('SELECT * FROM things')).toHaveLength(1);
      expect(sync.counts.now).toBe(1);
      // one more behind it: the read answers it at once
      const second = settled(g.db.write('group-commit', g.insert(2)));
      await turn();
      expect(g.db.allSql('SELECT * FROM things')).toHaveLength(2);
      expect(sync.counts.now).toBe(2);
      await turn();
      expect(second.done).toBe(true);
      // nothing committed since: a plain transaction needs no sync of its own first
      g.db.transaction(() => g.insert(3)());
      expect(sync.counts.now).toBe(2);
      sync.release();
      await turn();
      expect(first.done).toBe(true);
    } finally {
      while (sync.running() > 0) sync.release();
      g.close();
    }
  });

  it('when the sync of a group fails, then its writes are refused with the error', async () => {
    const sync = countedDisk();
    const g = groupedDb(sync.disk);
    try {
      sync.failNextSync(Object.assign(new Error('input/output error'), { code: 'EIO' }));
      await expect(g.db.write('group-commit', g.insert(1))).rejects.toMatchObject({ code: 'EIO' });
      await g.db.write('group-commit', g.insert(2));
      expect(sync.counts.background).toBe(2);
    } finally {
      g.close();
    }
  });

  it('when the connection is closed while groups wait for their sync, then they are synced and answered first', async () => {
    const sync = countedDisk({ held: true });
    const g = groupedDb(sync.disk);
    const first = settled(g.db.write('group-commit', g.insert(1)));
    await turn();
    const second = settled(g.db.write('group-commit', g.insert(2)));
    await turn();
    g.db.close();
    await turn();
    expect(sync.counts.now).toBe(1);
    expect(second.done).toBe(true);
    sync.release();
    await turn();
    expect(first.done).toBe(true);
    expect(g.visible()).toBe(2);
    g.close();
  });

  it('when a write comes alone (the loop waited for it since the last answer), then it commits and syncs at once without a group and is answered; one that was queued behind an answer joins a group', async () => {
    const sync = countedDisk();
    const loop = loopClock();
    const g = groupedDb(sync.disk, loop.idleMs);
    try {
      loop.wait();
      const alone = g.db.write('group-commit', g.insert(1));
      // committed before the call returned, synced inside SQLite (FULL), no sync off the thread
      expect(g.visible()).toBe(1);
      expect(sync.counts).toEqual({ background: 0, now: 0 });
      await alone;
      loop.wait();
      const second = g.db.write('group-commit', g.insert(2));
      expect(g.visible()).toBe(2);
      await second;
      expect(g.commits.n).toBe(0);
      // the loop did not wait since that answer: this write was queued, and opens a group
      const queued = g.db.write('group-commit', g.insert(3));
      expect(g.visible()).toBe(2);
      await queued;
      expect(g.visible()).toBe(3);
      expect(g.commits.n).toBe(1);
      expect(sync.counts.background).toBe(1);
    } finally {
      g.close();
    }
  });

  it('when the event loop itself has waited for a write (a timer, as for a request), then it comes alone; writes made in the same turn after its answer group', async () => {
    const sync = countedDisk();
    const g = groupedDb(sync.disk, eventLoopIdleMs);
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await g.db.write('group-commit', g.insert(1));
      expect(sync.counts.background).toBe(0);
      await g.db.write('group-commit', g.insert(2));
      expect(sync.counts.background).toBe(1);
    } finally {
      g.close();
    }
  });

  it('when a sync is running, or one of the last groups had company, then a write does not come alone even after the loop waited', async () => {
    const sync = countedDisk({ held: true });
    const loop = loopClock();
    const g = groupedDb(sync.disk, loop.idleMs);
    /** Lets the event loop and the held syncs run until `write` is answered. */
    const answered = async (write: { done: boolean }) => {
      while (!write.done) {
        if (sync.running() > 0) sync.release();
        await turn();
      }
    };
    try {
      // a write queued behind nothing the loop waited for: a group of one, its sync held
      const first = settled(g.db.write('group-commit', g.insert(1)));
      await turn();
      expect(sync.running()).toBe(1);
      loop.wait();
      const duringSync = settled(g.db.write('group-commit', g.insert(2)));
      expect(g.visible()).toBe(1);
      await answered(first);
      await answered(duringSync);
      // a group of two: among the last eight groups, so writes group until eight single ones have passed
      await Promise.all(
        [3, 4]
          .map((id) => g.db.write('group-commit', g.insert(id)))
          .map(settled)
          .map(answered),
      );
      for (let id = 5; id <= 12; id++) {
        loop.wait();
        const write = settled(g.db.write('group-commit', g.insert(id)));
        expect(g.visible()).toBe(id - 1);
        await answered(write);
      }
      loop.wait();
      const alone = g.db.write('group-commit', g.insert(13));
      expect(g.visible()).toBe(13);
      await alone;
    } finally {
      while (sync.running() > 0) sync.release();
      g.close();
    }
  });

  it('when the connection is closed while a group is open (a restore, a shutdown), then the group is committed first', async () => {
    const g = groupedDb();
    const written = g.db.write('group-commit', g.insert(1));
    g.db.close();
    await written;
    expect(g.visible()).toBe(1);
    g.close();
  });
});
