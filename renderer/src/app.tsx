import { useEffect, useState } from 'react';
import { ApiError, hasToken, onSessionEnded, resumeSession, signOut, type SignedInUser } from './api/index.ts';
import { Busy } from './components/busy.tsx';
import { useI18n } from './i18n/index.ts';
import { AppShell } from './app-shell.tsx';
import { SignInScreen } from './screens/sign-in/sign-in-screen.tsx';

/** Signed in or not: the sign-in screen, or the app. */
export function App() {
  const { t } = useI18n();
  const [user, setUser] = useState<SignedInUser | null>(null);
  const [resuming, setResuming] = useState(hasToken);
  const [endedReason, setEndedReason] = useState<string | null>(null);
  const [startError, setStartError] = useState<unknown>(undefined);

  useEffect(
    () =>
      onSessionEnded((reason) => {
        setUser(null);
        setEndedReason(reason);
      }),
    [],
  );

  useEffect(() => {
    if (!hasToken()) return;
    resumeSession()
      .then(setUser, (error: unknown) => {
        // a 401 has already told us why (onSessionEnded); anything else is shown on the sign-in screen
        if (!(error instanceof ApiError && error.status === 401)) setStartError(error);
      })
      .finally(() => setResuming(false));
  }, []);

  if (resuming) {
    return (
      <main className="centered">
        <Busy label={t('app.resuming')} />
      </main>
    );
  }
  if (!user) {
    return (
      <SignInScreen
        endedReason={endedReason}
        startError={startError}
        onSignedIn={(signedIn) => {
          setEndedReason(null);
          setStartError(undefined);
          setUser(signedIn);
        }}
      />
    );
  }
  return (
    <AppShell
      user={user}
      onSignOut={() => {
        // The sign-in screen shows once the server has ended the session, not before.
        void signOut().then(() => {
          setUser(null);
          setEndedReason(null);
        });
      }}
    />
  );
}
