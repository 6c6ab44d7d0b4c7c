import type { UserDto } from '../../../server/contract/auth.ts';
import { json } from './http.ts';
import { dropToken, keepToken, stayedSignedIn } from './token.ts';

export type { UserDto };
/** The signed-in person as the app shows them (the token stays inside the client). */
export type SignedInUser = Omit<UserDto, 'access_token' | 'token_type'>;

function signedIn(user: UserDto, stay: boolean): SignedInUser {
  keepToken(user.access_token, stay);
  const { access_token: _token, token_type: _type, ...rest } = user;
  return rest;
}

export async function signUp(
  input: { email: string; name: string; password: string },
  stay: boolean,
): Promise<SignedInUser> {
  return signedIn(await json<UserDto>('POST', '/api/auth/register', { json: input, auth: false }), stay);
}

export async function signIn(input: { email: string; password: string }, stay: boolean): Promise<SignedInUser> {
  return signedIn(await json<UserDto>('POST', '/api/auth/login', { json: input, auth: false }), stay);
}

/** Resumes a kept session; the server hands out a fresh token, kept where the old one was. */
export async function resumeSession(): Promise<SignedInUser> {
  return signedIn(await json<UserDto>('GET', '/api/auth/me'), stayedSignedIn());
}

export function signOut(): void {
  dropToken();
}
