import { z } from 'zod';
import { isoDateTime, resourceId } from './common.ts';
import { TEXT_LIMITS, tooLong } from './limits.ts';

export const chatBody = z.strictObject({
  message: z
    .string()
    .min(1)
    .max(TEXT_LIMITS.question, tooLong(TEXT_LIMITS.question))
    .refine((m) => m.trim().length > 0, 'must not be blank'),
  session_id: resourceId.optional(),
});

export const historyQuery = z.strictObject({ session_id: resourceId.optional() });
export const suggestionsQuery = z.strictObject({
  language: z.enum(['en', 'zh']).optional(),
  message: z.string().max(4000).optional(),
});

const message = z.object({
  id: resourceId,
  session_id: resourceId,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  created_at: isoDateTime,
});

export const chatSession = z
  .object({
    id: resourceId,
    title: z.string(),
    status: z.enum(['active', 'deleted']),
    message_count: z.number().int(),
    last_message: z
      .object({ role: z.enum(['user', 'assistant']), content: z.string(), created_at: isoDateTime })
      .nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
    messages: z.array(message).optional().describe('present when one session is asked for'),
  })
  .meta({ id: 'ChatSession' });

export const history = z.object({ sessions: z.array(chatSession) });
export const suggestionList = z.object({ suggestions: z.array(z.string()) });
export const modelStatus = z.object({
  available: z.boolean(),
  model: z.string(),
  host: z.string(),
  detail: z.string(),
});
