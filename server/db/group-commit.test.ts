import { describe, expect, it, vi } from 'vitest';
import { groupedDb, settled, turn } from '../../test/support/grouped-db.ts';
import { DomainError } from '../domain/errors.ts';

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

  it('when the connection is closed while a group is open (a restore, a shutdown), then the group is committed first', async () => {
    const g = groupedDb();
    const written = g.db.write('group-commit', g.insert(1));
    g.db.close();
    await written;
    expect(g.visible()).toBe(1);
    g.close();
  });

  it('when a group is answered, then its commit was made at synchronous=FULL, as every commit of the connection: its writes are on disk', async () => {
    const g = groupedDb();
    const levels: number[] = [];
    const exec = g.db.sqlite.exec.bind(g.db.sqlite);
    g.db.sqlite.exec = (sql: string) => {
      if (sql === 'COMMIT') levels.push(g.db.sqlite.pragma('synchronous', { simple: true }) as number);
      return exec(sql);
    };
    try {
      const writes = [1, 2, 3].map((id) => settled(g.db.write('group-commit', g.insert(id))));
      await Promise.resolve();
      expect(writes.some((w) => w.done)).toBe(false);
      await turn();
      await Promise.resolve();
      // 2 = FULL: the COMMIT itself synced the WAL before anyone was answered
      expect(levels).toEqual([2]);
      expect(writes.every((w) => w.done && w.error === undefined)).toBe(true);
      expect(g.visible()).toBe(3);
    } finally {
      g.close();
    }
  });

  it("when the connection's group commit is off (the bench's reference), then a 'group-commit' write commits in its own transaction before it is answered", async () => {
    const g = groupedDb({ groupCommit: false });
    try {
      const first = g.db.write('group-commit', g.insert(1));
      expect(g.visible()).toBe(1);
      await first;
      await Promise.all([2, 3].map((id) => g.db.write('group-commit', g.insert(id))));
      expect(g.visible()).toBe(3);
      // no group's COMMIT: each was a plain transaction
      expect(g.commits.n).toBe(0);
    } finally {
      g.close();
    }
  });
});
