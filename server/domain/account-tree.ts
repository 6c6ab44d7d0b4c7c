/**
 * Limits and walks of account trees. A tree's shape comes from its user (the API's `parent_id`, a
 * journal's account paths), so every walk here is a loop with a stated bound, never a recursion
 * whose depth the data decides.
 */

/**
 * How many levels an account tree has at most: a top-level account (`Assets:Bank`) is level 1,
 * `Assets:Bank:Checking` level 2. Deep enough for any chart of accounts (GnuCash's and hledger's
 * examples stop near 5); shallow enough that a path, a report's nesting and the interface's tree
 * stay small.
 */
export const MAX_ACCOUNT_DEPTH = 16;

export const ACCOUNT_DEPTH_LIMIT = `an account tree has at most ${MAX_ACCOUNT_DEPTH} levels below its root`;

export interface TreeMember {
  id: string;
  /** The member it hangs under in this tree, or null at the top. */
  parentId: string | null;
}

/** Where a member is shown: its parent in the shown tree and its level there (1 at the top). */
export interface Placement {
  parentId: string | null;
  depth: number;
}

/**
 * Places each member of a tree, walking up iteratively and remembering each placement. A member
 * deeper than `maxDepth` (only in a ledger made before the limit) is clipped: it is shown under its
 * ancestor at level `maxDepth`, at level `maxDepth + 1`, so that every shown node's total still
 * rolls up all of its descendants and no nesting passes `maxDepth + 1`. A parent that is not a
 * member, or a loop (which the API never makes), counts as the top.
 */
export function placeMembers(members: readonly TreeMember[], maxDepth = MAX_ACCOUNT_DEPTH): Map<string, Placement> {
  const byId = new Map(members.map((m) => [m.id, m]));
  const placed = new Map<string, Placement & { anchor: string | null }>();
  for (const member of members) {
    if (placed.has(member.id)) continue;
    // The chain from this member up to its first placed ancestor, or to the top.
    const chain: TreeMember[] = [];
    const onChain = new Set<string>();
    let cursor: TreeMember | undefined = member;
    while (cursor && !placed.has(cursor.id) && !onChain.has(cursor.id)) {
      chain.push(cursor);
      onChain.add(cursor.id);
      cursor = cursor.parentId === null ? undefined : byId.get(cursor.parentId);
    }
    let parent = cursor ? placed.get(cursor.id) : undefined;
    let parentId = parent ? cursor!.id : null;
    for (let i = chain.length - 1; i >= 0; i--) {
      const id = chain[i]!.id;
      let place: Placement & { anchor: string | null };
      if (!parent) place = { parentId: null, depth: 1, anchor: maxDepth === 1 ? id : null };
      else if (parent.depth < maxDepth)
        place = { parentId, depth: parent.depth + 1, anchor: parent.depth + 1 === maxDepth ? id : null };
      else if (parent.depth === maxDepth) place = { parentId, depth: maxDepth + 1, anchor: parentId };
      else place = { parentId: parent.anchor, depth: maxDepth + 1, anchor: parent.anchor };
      placed.set(id, place);
      parent = place;
      parentId = id;
    }
  }
  const out = new Map<string, Placement>();
  for (const [id, { parentId, depth }] of placed) out.set(id, { parentId, depth });
  return out;
}

/**
 * For each account, its nearest ancestor that `isMember` (a report's tree of one currency skips
 * accounts of other currencies), or null: iterative, each account's answer remembered, so the whole
 * pass is linear in the accounts whatever their depth.
 */
export function nearestMemberAncestors<T extends TreeMember>(
  accounts: readonly T[],
  isMember: (account: T) => boolean,
): Map<string, string | null> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  /** Per account: the nearest member at or above it. */
  const atOrAbove = new Map<string, string | null>();
  const out = new Map<string, string | null>();
  for (const account of accounts) {
    const chain: T[] = [];
    const onChain = new Set<string>();
    let cursor = account.parentId === null ? undefined : byId.get(account.parentId);
    while (cursor && !atOrAbove.has(cursor.id) && !onChain.has(cursor.id)) {
      chain.push(cursor);
      onChain.add(cursor.id);
      cursor = cursor.parentId === null ? undefined : byId.get(cursor.parentId);
    }
    let found: string | null = cursor && atOrAbove.has(cursor.id) ? atOrAbove.get(cursor.id)! : null;
    for (let i = chain.length - 1; i >= 0; i--) {
      const a = chain[i]!;
      if (isMember(a)) found = a.id;
      atOrAbove.set(a.id, found);
    }
    out.set(account.id, found);
  }
  return out;
}
