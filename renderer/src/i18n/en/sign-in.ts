/** The sign-in screen. */
export const signIn = {
  auth: {
    tagline: 'Double-entry bookkeeping that stays on your computer.',
    signIn: 'Sign in',
    signUp: 'Create account',
    createAccount: 'Create my ledger',
    modeLabel: 'Sign in or create an account',
    email: 'Email',
    name: 'Your name',
    password: 'Password',
    passwordRule: 'At least 8 characters, not only spaces.',
    stay: 'Stay signed in',
    stayOn: 'You stay signed in on this computer until you sign out.',
    stayOff: 'You are signed out when this window closes.',
    signingIn: 'Signing in…',
    creating: 'Creating your ledger…',
    sessionEnded: 'You have been signed out ({reason}). Please sign in again.',
    signOut: 'Sign out',
    wrongLogin: 'Wrong email or password. Check both and try again.',
    tooMany: 'Too many attempts: try again in {wait}.',
    tooManySignUps: 'Too many accounts were created from this computer: try again in {wait}.',
    lockedOutHelp:
      'Is this your ledger, and were these attempts not yours? Whoever owns the ledger’s data folder on this computer can set a new password at once, from a terminal: {command}',
  },
} as const;
