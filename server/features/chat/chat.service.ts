import type { Request, Response } from 'express';
import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import { DATA_NOT_INSTRUCTIONS, maskBankNumbers, toolResultForModel } from '../../domain/advisor-input.ts';
import { detectLanguage, DISCLAIMER, maskSecrets, StreamMasker, type Language } from '../../domain/chat-text.ts';
import { localToday, startOfMonth } from '../../domain/dates.ts';
import { PERIOD_YEARS, periodWords, readPeriod, type PeriodReading } from '../../domain/periods.ts';
import { DomainError } from '../../domain/errors.ts';
import { ModelUnavailable, type ChatMessage, type ChatModel, type ModelStream } from '../../llm/model.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import { builtinAnswer, NOTICE_STARTS } from './chat.builtin.ts';
import { GroundedAnswer } from './chat.grounding.ts';
import {
  activeSessionExists,
  insertMessage,
  insertSession,
  listSessions,
  markSessionDeleted,
  sessionHasAnswerStarting,
  sessionMessages,
  type ChatSession,
} from './chat.repository.ts';
import { runTool, TOOL_DEFINITIONS } from './chat.tools.ts';

/** Model turns per answer: each tool round trip is one; the bound keeps a confused model from looping. */
export const MAX_MODEL_ROUNDS = 6;
/** Tool calls run of one model turn (the rest are not run) and of one answer (then the answer ends). */
export const MAX_TOOL_CALLS_PER_TURN = 8;
export const MAX_TOOL_CALLS_PER_ANSWER = 24;
const HISTORY_MESSAGES = 20;

/** What the prompt says of the period the question names (or seems to name and cannot be used). */
function periodLine(reading: PeriodReading, today: string): string[] {
  if (!reading) return [];
  if ('unreadable' in reading)
    return [
      `The question names a period that cannot be used (${reading.unreadable}; the books keep the years ${PERIOD_YEARS}): answer for this month (${startOfMonth(today)} to ${today}) and say that this is the period you used.`,
    ];
  const { start, end } = reading.period;
  return [
    `The question is about ${periodWords(reading.period, 'en')}: ${start} to ${end}. Call the tools with start_date ${start} and end_date ${end} (balances: as_of ${end}) and name that period in the answer.`,
  ];
}

function systemPrompt(language: Language, reading: PeriodReading, today: string): string {
  return [
    'You are the bookkeeping advisor inside Personal Ledger, a double-entry ledger the user keeps on their own computer.',
    `Today is ${today}.`,
    ...periodLine(reading, today),
    'Talk only about the user’s own finances and bookkeeping; politely decline anything else.',
    'Every figure you give must come from a tool result in this conversation, quoted exactly as the tool gave it, with its currency. Never estimate, round or invent numbers; if a tool does not give a figure, say you do not have it.',
    'You can only read. If the user asks to create, change or delete anything, explain how to do it in the app (Journal for entries, Accounts for accounts, Statements for imports and reconciliation) and do not claim you did it.',
    'Never repeat long card or account numbers.',
    DATA_NOT_INSTRUCTIONS,
    `Answer in ${language === 'zh' ? 'Chinese' : 'English'}, briefly and plainly.`,
  ].join('\n');
}

function sessionDto(s: ChatSession, messages?: ReturnType<typeof sessionMessages>) {
  return {
    id: s.id,
    title: s.title,
    status: s.status,
    message_count: s.messageCount,
    last_message: s.lastMessage
      ? { role: s.lastMessage.role, content: s.lastMessage.content, created_at: s.lastMessage.createdAt }
      : null,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    ...(messages
      ? {
          messages: messages.map((m) => ({
            id: m.id,
            session_id: m.sessionId,
            role: m.role,
            content: m.content,
            created_at: m.createdAt,
          })),
        }
      : {}),
  };
}

export function chatHistory(db: LedgerDb, sessionId?: string) {
  if (sessionId === undefined) return { sessions: listSessions(db).map((s) => sessionDto(s)) };
  const [session] = listSessions(db, sessionId);
  if (!session) throw new DomainError('NOT_FOUND', 'Chat session not found');
  return { sessions: [sessionDto(session, sessionMessages(db, sessionId))] };
}

export function deleteSession(db: LedgerDb, id: string): void {
  db.transaction(() => {
    if (!markSessionDeleted(db, id, new Date().toISOString()))
      throw new DomainError('NOT_FOUND', 'Chat session not found');
  });
}

/** Opens (or continues) a session and stores the user's message, before anything is streamed. */
function beginTurn(
  db: LedgerDb,
  message: string,
  sessionId: string | undefined,
): { sessionId: string; history: ChatMessage[] } {
  return db.transaction(() => {
    const at = new Date().toISOString();
    let id = sessionId;
    let history: ChatMessage[] = [];
    if (id !== undefined) {
      if (!activeSessionExists(db, id)) throw new DomainError('NOT_FOUND', 'Chat session not found');
      history = sessionMessages(db, id, HISTORY_MESSAGES).map((m) => ({ role: m.role, content: m.content }));
    } else {
      id = newRowId();
      const title = maskSecrets(message.replace(/\s+/g, ' ').trim()).slice(0, 60);
      insertSession(db, id, title, at);
    }
    insertMessage(db, {
      id: newRowId(),
      sessionId: id,
      role: 'user',
      content: maskSecrets(message),
      createdAt: at,
    });
    return { sessionId: id, history };
  });
}

function saveAnswer(db: LedgerDb, sessionId: string, content: string): void {
  db.transaction(() =>
    insertMessage(db, {
      id: newRowId(),
      sessionId,
      role: 'assistant',
      content,
      createdAt: new Date().toISOString(),
    }),
  );
}

/**
 * Streams an answer as text/plain while the model produces it. The model reads the ledger only
 * through the read-only tools, in a bounded loop; each tool call is one synchronous read, so no
 * transaction stays open while the model thinks. Without a reachable model the built-in advisor
 * answers from the same tools. A client that goes away aborts the model request.
 */
export async function streamAnswer(
  db: LedgerDb,
  model: ChatModel,
  input: { message: string; session_id?: string | undefined },
  req: Request,
  res: Response,
): Promise<void> {
  const language = detectLanguage(input.message);
  const today = localToday();
  const reading = readPeriod(input.message, today);
  const asked =
    reading && 'period' in reading
      ? { start: reading.period.start, end: reading.period.end, past: reading.period.end < today }
      : undefined;
  const { sessionId, history } = beginTurn(db, input.message, input.session_id);

  res.status(200);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Session-Id', sessionId);
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();

  let answer = '';
  const masker = new StreamMasker();
  const write = (text: string) => {
    if (!text) return;
    answer += text;
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  let current: ModelStream | undefined;
  let clientGone = false;
  res.on('close', () => {
    if (!res.writableFinished) {
      clientGone = true;
      current?.abort();
    }
  });

  let stopped = false;
  const stop = (error: unknown) => {
    stopped = true;
    const reason = maskSecrets(error instanceof Error ? error.message : String(error));
    write(language === 'zh' ? `\n\n[顾问中断：${reason}]` : `\n\n[The advisor stopped: ${reason}]`);
  };
  // Headers are sent: an answer that cannot be kept (its ledger replaced by a restore meanwhile,
  // a full disk) still ends the stream with a readable line, once, instead of cutting it off.
  const keep = (content: string) => {
    try {
      saveAnswer(db, sessionId, content);
    } catch (error) {
      if (!clientGone && !stopped) stop(error);
    }
  };

  // card numbers and IBANs never reach the model, whoever wrote them
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(language, reading, today) },
    ...history.map((m) => ({ ...m, content: maskBankNumbers(m.content) })),
    { role: 'user', content: maskBankNumbers(input.message) },
  ];
  // every figure of the answer is checked against this turn's tool results before it is shown
  const grounded = new GroundedAnswer(language, input.message, today);
  const rest = () => grounded.push(masker.flush()) + grounded.abandon();
  let toolCallsRun = 0;
  const limitReached = () =>
    write(
      rest() +
        (language === 'zh' ? '\n（已达到工具调用次数上限。）' : '\n(The advisor reached its limit of tool calls.)'),
    );
  try {
    for (let round = 0; round < MAX_MODEL_ROUNDS && !clientGone; round++) {
      try {
        current = await model.chat(messages, TOOL_DEFINITIONS);
      } catch (error) {
        if (error instanceof ModelUnavailable && round === 0 && answer === '') {
          // the notice once per conversation: its first built-in answer says why and how to start the model
          const told = input.session_id !== undefined && sessionHasAnswerStarting(db, sessionId, NOTICE_STARTS);
          write(maskSecrets(builtinAnswer(db, input.message, language, told ? null : error, today)));
          break;
        }
        throw error;
      }
      if (clientGone) current.abort();
      let content = '';
      const calls: { name: string; arguments: Record<string, unknown> }[] = [];
      for await (const chunk of current) {
        if (clientGone) break;
        if (chunk.content) {
          content += chunk.content;
          write(grounded.push(masker.push(chunk.content)));
        }
        for (const call of chunk.toolCalls) if (calls.length < MAX_TOOL_CALLS_PER_TURN) calls.push(call);
      }
      if (clientGone) break;
      if (calls.length === 0) {
        const verdict = grounded.settle(masker.flush(), round < MAX_MODEL_ROUNDS - 1);
        if ('show' in verdict) {
          write(verdict.show);
          break;
        }
        messages.push(
          { role: 'assistant', content: maskBankNumbers(content) },
          { role: 'user', content: verdict.retry },
        );
        continue;
      }
      const run = calls.slice(0, MAX_TOOL_CALLS_PER_ANSWER - toolCallsRun);
      toolCallsRun += run.length;
      messages.push({
        role: 'assistant',
        content: maskBankNumbers(content),
        tool_calls: run.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
      });
      for (const call of run) {
        const result = runTool(db, call.name, call.arguments, asked);
        grounded.addToolResult(result);
        messages.push({ role: 'tool', content: toolResultForModel(result), tool_name: call.name });
      }
      if (round === MAX_MODEL_ROUNDS - 1 || toolCallsRun >= MAX_TOOL_CALLS_PER_ANSWER) {
        limitReached();
        break;
      }
    }
    write(rest());
  } catch (error) {
    write(rest());
    if (!clientGone) stop(error);
  }
  if (clientGone) {
    keep(`${answer}\n\n${language === 'zh' ? '（已停止）' : '(stopped)'}`);
    return;
  }
  const ending = () => `${answer === '' || answer.endsWith('\n') ? '' : '\n'}\n${DISCLAIMER[language]}\n`;
  keep(answer + ending());
  write(ending());
  res.end();
}

export async function modelStatus(model: ChatModel) {
  const status = await model.status();
  return { available: status.available, model: model.name, host: model.host, detail: status.detail };
}

/** 4 to 8 questions in the user's language, some about their own accounts. */
export function suggestions(db: LedgerDb, language: Language): string[] {
  const accounts = allAccounts(db).filter((a) => a.isActive);
  const expense = accounts.find((a) => a.type === 'EXPENSE');
  const asset = accounts.find((a) => a.type === 'ASSET');
  if (language === 'zh') {
    return [
      '我的净资产是多少？',
      '我这个月花了多少钱？',
      '上个月最大的几项支出是什么？',
      ...(expense ? [`上个月我在${expense.name}上花了多少？`] : []),
      ...(asset ? [`${asset.name}的余额是多少？`] : []),
      '我的银行对账进展如何？',
      '今年的收入和支出相比如何？',
      '未来两周有哪些账单到期？',
    ];
  }
  return [
    'What is my net worth?',
    'How much did I spend this month?',
    'What were my top expenses last month?',
    ...(expense ? [`How much did I spend on ${expense.name} last month?`] : []),
    ...(asset ? [`What is the balance of ${asset.name}?`] : []),
    'How far along is my bank reconciliation?',
    'How does my income compare with my spending this year?',
    'What bills are due in the next two weeks?',
  ];
}
