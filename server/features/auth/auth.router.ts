import { accessToken, loginBody, passwordChangeBody, registerBody, user } from '../../contract/auth.ts';
import { errorBody } from '../../contract/common.ts';
import { clientAddress, refuseTooMany, type AttemptLimiter, type LoginLimiter } from '../../http/rate-limit.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { Request, Response } from 'express';
import type { AuthService } from './auth.service.ts';

export interface AuthLimits {
  register: AttemptLimiter;
  login: LoginLimiter;
}

const rateLimited = {
  status: 429,
  description: 'RATE_LIMITED: too many attempts from this address (see Retry-After)',
  schema: errorBody,
};

/** What a locked-out owner can do, with the wait (the interface says the same in the user's language). */
const LOCKED_OUT =
  'If this is your ledger, whoever owns its data folder can set a new password: npm run reset-password -- <email> ' +
  '(the desktop app: personal-ledger --reset-password <email>)';

/**
 * Runs `attempt` within the login limits of (client address, email): refused with 429 while
 * they are used up; counted as a failure unless it succeeds (CONTRACT §8).
 */
async function withinLoginLimits<T>(
  limits: AuthLimits,
  auth: AuthService,
  req: Request,
  res: Response,
  email: string,
  attempt: () => Promise<T>,
): Promise<T> {
  const verdict = limits.login.begin(clientAddress(req), email, auth.passwordSetAt(email));
  if (!verdict.allowed) refuseTooMany(res, verdict.retryAfterSeconds, LOCKED_OUT);
  const result = await attempt();
  verdict.succeeded();
  return result;
}

export function authRoutes(auth: AuthService, limits: AuthLimits): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/auth/register',
      tag: 'auth',
      summary: 'Register a user and get a token (3 attempts an hour per address, counted whether they succeed or not)',
      auth: false,
      rateLimit: limits.register,
      body: registerBody,
      responses: [
        { status: 201, description: 'The new user with an access token', schema: user },
        { status: 409, description: 'EMAIL_TAKEN', schema: errorBody },
        rateLimited,
      ],
      handler: async ({ body }) => ({ status: 201, body: await auth.register(body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/login',
      tag: 'auth',
      summary:
        'Log in and get a token of a new session (5 failures per address and email, and 20 per address, in 15 minutes)',
      auth: false,
      body: loginBody,
      responses: [
        { status: 200, description: 'The user with an access token', schema: user },
        { status: 401, description: 'Invalid email or password', schema: errorBody },
        rateLimited,
      ],
      handler: async ({ body, req, res }) => {
        const email = body.email.trim().toLowerCase();
        const signedIn = await withinLoginLimits(limits, auth, req, res, email, () => auth.login(email, body.password));
        return { status: 200, body: signedIn };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/me',
      tag: 'auth',
      summary: 'The current user, with a fresh token of the same session',
      auth: true,
      responses: [{ status: 200, description: 'The user', schema: user }],
      handler: ({ session }) => ({ status: 200, body: auth.me(session.userId, session.sessionId) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/logout',
      tag: 'auth',
      summary:
        'End this session: every token of it (the one sent, and every one refreshed from it) is refused from now on',
      auth: true,
      responses: [{ status: 204, description: 'The session is ended' }],
      handler: ({ session }) => {
        auth.logout(session.userId, session.sessionId);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/password',
      tag: 'auth',
      summary:
        'Change the password: every earlier token is refused from now on, and the answer is a token of a new session. ' +
        'A wrong current password counts as a failed login.',
      auth: true,
      body: passwordChangeBody,
      responses: [
        { status: 200, description: 'A token of a new session', schema: accessToken },
        {
          status: 400,
          description: 'VALIDATION_ERROR (the new password: 8 to 72 bytes, not only white space)',
          schema: errorBody,
        },
        { status: 401, description: 'Invalid email or password (the current password is wrong)', schema: errorBody },
        rateLimited,
      ],
      handler: async ({ session, body, req, res }) => {
        const email = auth.emailOf(session.userId);
        const token = await withinLoginLimits(limits, auth, req, res, email, () =>
          auth.changePassword(session.userId, body.current_password, body.new_password),
        );
        return { status: 200, body: token };
      },
    }),
  ];
}
