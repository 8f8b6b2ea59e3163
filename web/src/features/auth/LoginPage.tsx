import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from '../../lib/router';
import { PageFallback } from '../../components/Spinner';
import { api, isApiError } from '../../lib/api';
import { checkSession, useAuth } from '../../lib/authStore';
import { validateEmail } from '../../lib/email';
import { preventImeSubmit } from '../../lib/ime';
import { useLang, useLocalizedPath } from '../../lib/useLang';
import { authErrorKey, isDevLoginEmail } from './authErrors';
import type { OtpSent } from './OtpStep';

// The code step loads while the first email is being sent (it is not needed to paint /login);
// so does its countdown logic (otpLogic), which it builds from the answer itself.
const loadOtpStep = () => import('./OtpStep');
const OtpStep = lazy(loadOtpStep);

type Step = { kind: 'email' } | { kind: 'otp'; email: string; sent: OtpSent };

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const auth = useAuth();
  const lp = useLocalizedPath();
  const location = useLocation();
  const [step, setStep] = useState<Step>({ kind: 'email' });

  if (auth.user) {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from && from !== lp('/login') ? from : lp('/')} replace />;
  }

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>{t('title')}</h1>
        {step.kind === 'email' ? (
          <EmailStep onSent={(email, sent) => setStep({ kind: 'otp', email, sent })} />
        ) : (
          <Suspense fallback={<PageFallback />}>
            <OtpStep email={step.email} sent={step.sent} onChangeEmail={() => setStep({ kind: 'email' })} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

function EmailStep({ onSent }: { onSent: (email: string, sent: OtpSent) => void }) {
  const { t } = useTranslation('auth');
  const lang = useLang();
  const lp = useLocalizedPath();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // The auth helper (api.auth) checks the address itself: a missing or malformed one is refused
    // before any request with its own message ('Email address is required', 'Invalid email format').
    const address = email.trim();
    void loadOtpStep();
    setBusy(true);
    setError(null);
    try {
      if (isDevLoginEmail(address)) {
        try {
          // Signs in as every sign-in does (an answer without a user fails), in its own chunk.
          const [res, { afterSignIn }] = await Promise.all([api.auth.devLogin(address), import('./afterSignIn')]);
          afterSignIn(res, 'dev', { welcomeNew: t('welcomeNew'), signedIn: t('signedIn') });
          await checkSession();
          navigate(lp('/'), { replace: true });
          return;
        } catch (err) {
          if (!(isApiError(err) && err.status === 404)) throw err;
          // dev login is off on this server: use the normal code flow
        }
      }
      const res = await api.auth.requestOtp(address, lang);
      onSent(address, { at: Date.now(), answer: res });
    } catch (err) {
      const { key, params } = authErrorKey(err, 'errors.loginFailed');
      setError(t(key, params));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} onKeyDown={preventImeSubmit} noValidate aria-describedby="login-hint">
      <p id="login-hint" className="hint">
        {t('noPasswordHint')}
      </p>
      <label htmlFor="login-email">{t('emailLabel')}</label>
      <input
        id="login-email"
        type="email"
        inputMode="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('emailPlaceholder')}
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          // A shown error is checked again as the address changes (the form's own messages): it
          // goes once the address is right.
          if (error) {
            const invalid = validateEmail(e.target.value);
            setError(invalid ? t(invalid) : null);
          }
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'login-email-error' : undefined}
        required
      />
      {error && (
        <p id="login-email-error" className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? t('sending') : t('sendCode')}
      </button>
    </form>
  );
}
