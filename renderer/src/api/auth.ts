import { answer, api, publicApi, type Body, type Schemas } from './client.ts';
import { currentToken, dropToken, keepToken, stayedSignedIn } from './token.ts';

export type UserDto = Schemas['User'];
/** The signed-in person as the app shows them (the token stays inside the client). */
export type SignedInUser = Omit<UserDto, 'access_token' | 'token_type'>;

function signedIn(user: UserDto, stay: boolean): SignedInUser {
  keepToken(user.access_token, stay);
  const { access_token: _token, token_type: _type, ...rest } = user;
  return rest;
}

export async function signUp(input: Body<'/api/auth/register', 'post'>, stay: boolean): Promise<SignedInUser> {
  return signedIn(await answer(publicApi.POST('/api/auth/register', { body: input })), stay);
}

export async function signIn(input: Body<'/api/auth/login', 'post'>, stay: boolean): Promise<SignedInUser> {
  return signedIn(await answer(publicApi.POST('/api/auth/login', { body: input })), stay);
}

/** Resumes a kept session; the server hands out a fresh token, kept where the old one was. */
export async function resumeSession(): Promise<SignedInUser> {
  return signedIn(await answer(api.GET('/api/auth/me')), stayedSignedIn());
}

/**
 * Signs out: the server ends the session (every token of it stops working), and the token is
 * dropped here whatever the server answers (an ended session, or no server, signs out as well).
 */
export async function signOut(): Promise<void> {
  const token = currentToken();
  dropToken();
  if (!token) return;
  try {
    await publicApi.POST('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    // the session had ended already, or the server is gone: the token is dropped here all the same
  }
}

/**
 * Changes the password. The server ends every session of the user and answers a token of a new
 * one, kept where the old one was; a wrong current password is a 401 that does not end this session.
 */
export async function changePassword(input: Body<'/api/auth/password', 'post'>): Promise<void> {
  const { access_token } = await answer(api.POST('/api/auth/password', { body: input }));
  keepToken(access_token, stayedSignedIn());
}
