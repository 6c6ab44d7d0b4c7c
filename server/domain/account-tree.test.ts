import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestMemberAncestors, placeMembers, type TreeMember } from './account-tree.ts';

/** A random forest: each member's parent is an earlier member or none. */
const forest = fc
  .array(fc.option(fc.nat(), { nil: null }), { minLength: 1, maxLength: 60 })
  .map((parents) =>
    parents.map((p, i): TreeMember => ({ id: `a${i}`, parentId: p === null || i === 0 ? null : `a${p % i}` })),
  );

/** The true level of each member, by walking up (the reference). */
function trueDepth(members: readonly TreeMember[], id: string): number {
  const byId = new Map(members.map((m) => [m.id, m]));
  let depth = 0;
  for (let m = byId.get(id); m; m = m.parentId === null ? undefined : byId.get(m.parentId)) depth++;
  return depth;
}

function ancestors(members: readonly TreeMember[], id: string): string[] {
  const byId = new Map(members.map((m) => [m.id, m]));
  const out: string[] = [];
  for (let m = byId.get(byId.get(id)!.parentId ?? ''); m; m = m.parentId === null ? undefined : byId.get(m.parentId))
    out.push(m.id);
  return out;
}

describe('placing account trees', () => {
  it('when a tree is within the limit, then every member keeps its parent and its true level', () => {
    fc.assert(
      fc.property(forest, (members) => {
        const placed = placeMembers(members, 1000);
        for (const m of members)
          expect(placed.get(m.id)).toEqual({ parentId: m.parentId, depth: trueDepth(members, m.id) });
      }),
    );
  });

  it('when members are deeper than the limit, then they hang under their ancestor at the limit and no level passes limit + 1', () => {
    fc.assert(
      fc.property(forest, fc.integer({ min: 1, max: 5 }), (members, limit) => {
        const placed = placeMembers(members, limit);
        for (const m of members) {
          const depth = trueDepth(members, m.id);
          const place = placed.get(m.id)!;
          if (depth <= limit) expect(place).toEqual({ parentId: m.parentId, depth });
          else {
            const up = ancestors(members, m.id);
            // the ancestor at level `limit` is the one `depth - limit` steps up
            expect(place).toEqual({ parentId: up[depth - limit - 1], depth: limit + 1 });
          }
        }
      }),
    );
  });

  it('when a chain is 100,000 levels deep, then it is placed without running out of stack', () => {
    const members = Array.from({ length: 100_000 }, (_, i) => ({
      id: `a${i}`,
      parentId: i === 0 ? null : `a${i - 1}`,
    }));
    const placed = placeMembers(members, 16);
    expect(placed.get('a15')).toEqual({ parentId: 'a14', depth: 16 });
    expect(placed.get('a99999')).toEqual({ parentId: 'a15', depth: 17 });
  });

  it('when the data holds a loop, then the walk ends and the loop is cut', () => {
    const placed = placeMembers([
      { id: 'x', parentId: 'y' },
      { id: 'y', parentId: 'x' },
    ]);
    expect([...placed.values()].map((p) => p.depth).sort()).toEqual([1, 2]);
  });
});

describe('nearest member ancestors', () => {
  it('when some accounts are not members, then each account gets its nearest member ancestor, as a walk up finds it', () => {
    fc.assert(
      fc.property(forest, fc.func(fc.boolean()), (members, pick) => {
        const isMember = (m: TreeMember) => pick(m.id);
        const found = nearestMemberAncestors(members, isMember);
        const byId = new Map(members.map((m) => [m.id, m]));
        for (const m of members) {
          const expected = ancestors(members, m.id).find((id) => isMember(byId.get(id)!)) ?? null;
          expect(found.get(m.id)).toBe(expected);
        }
      }),
    );
  });

  it('when a chain is 100,000 levels deep, then the pass ends without running out of stack', () => {
    const members = Array.from({ length: 100_000 }, (_, i) => ({
      id: `a${i}`,
      parentId: i === 0 ? null : `a${i - 1}`,
    }));
    const found = nearestMemberAncestors(members, (m) => m.id === 'a0');
    expect(found.get('a99999')).toBe('a0');
    expect(found.get('a0')).toBe(null);
  });
});
