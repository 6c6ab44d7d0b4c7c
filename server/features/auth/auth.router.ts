import { loginBody, registerBody, user } from '../../contract/auth.ts';
import { errorBody } from '../../contract/common.ts';
import type { AttemptLimiter } from '../../http/rate-limit.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { AuthService } from './auth.service.ts';

export interface AuthLimits {
  register: AttemptLimiter;
  login: AttemptLimiter;
}

const rateLimited = {
  status: 429,
  description: 'RATE_LIMITED: too many attempts from this address (see Retry-After)',
  schema: errorBody,
};

export function authRoutes(auth: AuthService, limits: AuthLimits): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/auth/register',
      tag: 'auth',
      summary: 'Register a user and get a token (3 attempts an hour per address)',
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
      summary: 'Log in and get a token (5 attempts per 15 minutes per address)',
      auth: false,
      rateLimit: limits.login,
      body: loginBody,
      responses: [
        { status: 200, description: 'The user with an access token', schema: user },
        { status: 401, description: 'Invalid email or password', schema: errorBody },
        rateLimited,
      ],
      handler: async ({ body }) => ({ status: 200, body: await auth.login(body.email, body.password) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/me',
      tag: 'auth',
      summary: 'The current user, with a freshly issued token',
      auth: true,
      responses: [{ status: 200, description: 'The user', schema: user }],
      handler: ({ session }) => ({ status: 200, body: auth.me(session.userId) }),
    }),
  ];
}
