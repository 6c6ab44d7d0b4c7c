import {
  chatBody,
  history,
  historyQuery,
  modelStatus as modelStatusSchema,
  suggestionList,
  suggestionsQuery,
} from '../../contract/chat.ts';
import { z } from 'zod';
import { errorBody, idParams, resourceId } from '../../contract/common.ts';
import { detectLanguage } from '../../domain/chat-text.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { ChatModel } from '../../llm/model.ts';
import { chatHistory, deleteSession, modelStatus, streamAnswer, suggestions } from './chat.service.ts';

export function chatRoutes(model: ChatModel): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/chat',
      tag: 'chat',
      summary:
        'Ask the advisor; the answer streams as text/plain and ends with a disclaimer line. X-Session-Id names the session.',
      auth: true,
      body: chatBody,
      responses: [
        {
          status: 200,
          description: 'The answer as it is written, ending with a disclaimer line',
          schema: z.string(),
          contentTypes: ['text/plain'],
          headers: {
            'X-Session-Id': { description: 'The chat session the turn belongs to (new or given)', schema: resourceId },
            'X-Accel-Buffering': {
              description: '`no`: a proxy is to pass the stream on as it comes',
              schema: z.literal('no'),
            },
          },
        },
        { status: 404, description: 'NOT_FOUND: unknown or deleted session_id', schema: errorBody },
      ],
      handler: async ({ session, body, req, res }) => {
        await streamAnswer(session.ledger, model, body, req, res);
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/chat/status',
      tag: 'chat',
      summary: 'Whether the local model server answers and has the model',
      auth: true,
      responses: [{ status: 200, description: 'Model status', schema: modelStatusSchema }],
      handler: async () => ({ status: 200, body: await modelStatus(model) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/chat/history',
      tag: 'chat',
      summary: 'Chat sessions, most recent first; with session_id, that session with its messages',
      auth: true,
      query: historyQuery,
      responses: [
        { status: 200, description: 'Sessions', schema: history },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
      ],
      handler: ({ session, query }) => ({ status: 200, body: chatHistory(session.ledger, query.session_id) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/chat/session/:id',
      tag: 'chat',
      summary: 'Delete a chat session (it leaves the history)',
      auth: true,
      params: idParams,
      responses: [
        { status: 204, description: 'Deleted' },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
      ],
      handler: ({ session, params }) => {
        deleteSession(session.ledger, params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/chat/suggestions',
      tag: 'chat',
      summary: 'Suggested questions in English or Chinese (from `language`, else detected from `message`)',
      auth: true,
      query: suggestionsQuery,
      responses: [{ status: 200, description: 'Suggestions', schema: suggestionList }],
      handler: ({ session, query }) => ({
        status: 200,
        body: {
          suggestions: suggestions(
            session.ledger,
            query.language ?? (query.message ? detectLanguage(query.message) : 'en'),
          ),
        },
      }),
    }),
  ];
}
