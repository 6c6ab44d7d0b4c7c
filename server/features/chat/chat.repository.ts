import type { LedgerDb } from '../../db/stores.ts';

export interface ChatSession {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  lastMessage: ChatMessageRow | null;
}

export interface ChatMessageRow {
  id: string;
  sessionId: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
}

type MessageRow = { id: string; session_id: string; role: string; content: string; created_at: string };

function toMessage(r: MessageRow): ChatMessageRow {
  return {
    id: r.id,
    sessionId: r.session_id,
    role: r.role as 'user' | 'assistant',
    content: r.content,
    createdAt: r.created_at,
  };
}

export function insertSession(db: LedgerDb, id: string, title: string, at: string): void {
  db.run(db.qb.insertInto('chat_sessions').values({ id, title, status: 'active', created_at: at, updated_at: at }));
}

export function activeSessionExists(db: LedgerDb, id: string): boolean {
  return (
    db.first(db.qb.selectFrom('chat_sessions').select('id').where('id', '=', id).where('status', '=', 'active')) !==
    undefined
  );
}

export function insertMessage(db: LedgerDb, m: ChatMessageRow): void {
  const seq =
    (db.first(db.qb.selectFrom('chat_messages').select((eb) => eb.fn.max<bigint | null>('seq').as('s')))!.s ?? 0n) + 1n;
  db.run(
    db.qb
      .insertInto('chat_messages')
      .values({ id: m.id, seq, session_id: m.sessionId, role: m.role, content: m.content, created_at: m.createdAt }),
  );
  db.run(db.qb.updateTable('chat_sessions').set({ updated_at: m.createdAt }).where('id', '=', m.sessionId));
}

export function sessionMessages(db: LedgerDb, sessionId: string, last?: number): ChatMessageRow[] {
  let query = db.qb
    .selectFrom('chat_messages')
    .select(['id', 'session_id', 'role', 'content', 'created_at'])
    .where('session_id', '=', sessionId)
    .orderBy('seq', 'desc');
  if (last !== undefined) query = query.limit(last);
  return db.all(query).map(toMessage).reverse();
}

/** Active sessions, most recently used first, each with its message count and last message. */
export function listSessions(db: LedgerDb, onlyId?: string): ChatSession[] {
  let query = db.qb
    .selectFrom('chat_sessions as s')
    .select((eb) => [
      's.id',
      's.title',
      's.status',
      's.created_at',
      's.updated_at',
      eb
        .selectFrom('chat_messages as m')
        .select((e) => e.fn.countAll<bigint>().as('n'))
        .whereRef('m.session_id', '=', 's.id')
        .as('message_count'),
    ])
    .where('s.status', '=', 'active')
    .orderBy('s.updated_at', 'desc')
    .orderBy('s.id');
  if (onlyId !== undefined) query = query.where('s.id', '=', onlyId);
  return db.all(query).map((r) => {
    const last = db.first(
      db.qb
        .selectFrom('chat_messages')
        .select(['id', 'session_id', 'role', 'content', 'created_at'])
        .where('session_id', '=', r.id)
        .orderBy('seq', 'desc')
        .limit(1),
    );
    return {
      id: r.id,
      title: r.title,
      status: r.status,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      messageCount: Number(r.message_count ?? 0n),
      lastMessage: last ? toMessage(last) : null,
    };
  });
}

export function markSessionDeleted(db: LedgerDb, id: string, at: string): boolean {
  return (
    db.run(
      db.qb
        .updateTable('chat_sessions')
        .set({ status: 'deleted', updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 'active'),
    ) === 1
  );
}

/** Whether an answer of the session begins with one of `starts` (the session's own messages are read, by its index). */
export function sessionHasAnswerStarting(db: LedgerDb, sessionId: string, starts: readonly string[]): boolean {
  return db.existsSql(
    `SELECT 1 FROM chat_messages WHERE session_id = ? AND role = 'assistant' AND (${starts
      .map(() => 'substr(content, 1, ?) = ?')
      .join(' OR ')}) LIMIT 1`,
    sessionId,
    ...starts.flatMap((s) => [s.length, s]),
  );
}
