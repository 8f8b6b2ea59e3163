import { useRef, useState, type ChangeEvent, type ClipboardEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../lib/router';
import { toast } from '../../components/toast';
import { api } from '../../lib/api';
import type { OtpRequestAnswer } from '../../lib/types';
import { preventImeSubmit } from '../../lib/ime';
import { useLang, useLocalizedPath } from '../../lib/useLang';
import { useNow } from '../../lib/useNow';
import { afterSignIn } from './afterSignIn';
import { authErrorKey } from './authErrors';
import {
  OTP_LENGTH,
  applyOtpInput,
  canResend,
  canSubmit,
  formatCountdown,
  isExpired,
  remainingSeconds,
  resendCooldownSeconds,
  resendOtp,
  startOtp,
  type OtpState,
} from './otpLogic';

/** When the code was sent and what the server said (its lifetimes, whether code sign-in is paused). */
export interface OtpSent {
  at: number;
  answer: OtpRequestAnswer | undefined;
}

function otpFrom(previous: OtpState | null, { at, answer }: OtpSent): OtpState {
  const next = previous ? resendOtp(previous, at, answer?.expires_in, answer?.resend_after) : startOtp(at, answer?.expires_in, answer?.resend_after);
  return { ...next, codePaused: answer?.code_sign_in === false };
}

/** Step 2 of the login: the 6-digit code with expiry countdown and resend cooldown. */
export default function OtpStep({ email, sent, onChangeEmail }: { email: string; sent: OtpSent; onChangeEmail: () => void }) {
  const { t } = useTranslation('auth');
  useTranslation('errors'); // loaded for OTP_REPLACED's text (authErrorKey: errors:code.OTP_REPLACED)
  const lang = useLang();
  const lp = useLocalizedPath();
  const navigate = useNavigate();
  const location = useLocation();
  const [otp, setOtp] = useState(() => otpFrom(null, sent));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const now = useNow(1000);
  const inputRef = useRef<HTMLInputElement>(null);
  const expired = isExpired(otp, now);
  const remaining = remainingSeconds(otp, now);

  async function verify(code: string) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const res = await api.auth.verify(email, code);
      afterSignIn(res, 'code', { welcomeNew: t('welcomeNew'), signedIn: t('signedIn') });
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from ?? lp('/'), { replace: true });
    } catch (err) {
      const { key, params } = authErrorKey(err, 'errors.loginFailed');
      setError(t(key, params));
      setOtp((s) => ({ ...s, digits: '' }));
      inputRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  function apply(raw: string, bulk?: boolean) {
    const r = applyOtpInput(otp, raw, Date.now(), bulk);
    setOtp(r.state);
    if (r.autoSubmit) void verify(r.state.digits);
  }

  function onChange(e: ChangeEvent<HTMLInputElement>) {
    // Autofill (autocomplete="one-time-code") arrives as a change inserting several characters.
    apply(e.target.value);
  }

  function onPaste(e: ClipboardEvent<HTMLInputElement>) {
    e.preventDefault();
    apply(e.clipboardData.getData('text'), true);
  }

  async function resend() {
    setResending(true);
    setError(null);
    try {
      const res = await api.auth.requestOtp(email, lang);
      setOtp(otpFrom(otp, { at: Date.now(), answer: res }));
      toast.success(t('resent'));
      inputRef.current?.focus();
    } catch (err) {
      const { key, params } = authErrorKey(err, 'errors.resendFailed');
      setError(t(key, params));
    } finally {
      setResending(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (canSubmit(otp, Date.now())) void verify(otp.digits);
  }

  return (
    <form onSubmit={submit} onKeyDown={preventImeSubmit} noValidate>
      <p className="hint">{t('codeSentTo', { email })}</p>
      {otp.codePaused ? (
        <p className="notice warning" role="alert">
          {t('codePaused')}
        </p>
      ) : (
        <p className="hint">{t('linkHint')}</p>
      )}
      <label htmlFor="login-otp">{t('codeLabel')}</label>
      <input
        ref={inputRef}
        id="login-otp"
        className="otp-input"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        placeholder="000000"
        value={otp.digits}
        onChange={onChange}
        onPaste={onPaste}
        disabled={expired}
        aria-invalid={error ? true : undefined}
        aria-describedby="login-otp-timer"
        autoFocus
      />
      <p id="login-otp-timer" className={expired ? 'field-error' : 'hint'} role={expired ? 'alert' : undefined} aria-live="off">
        {expired ? t('expired') : t('expiresIn', { time: formatCountdown(remaining) })}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={busy || !canSubmit(otp, now)}>
        {busy ? t('verifying') : t('verify')}
      </button>
      <div className="row between">
        <button type="button" className="button link" onClick={onChangeEmail}>
          {t('changeEmail')}
        </button>
        <button type="button" className="button secondary" onClick={resend} disabled={resending || !canResend(otp, now)}>
          {canResend(otp, now) ? t('resend') : t('resendIn', { seconds: resendCooldownSeconds(otp, now) })}
        </button>
      </div>
      <span className="sr-only">{t('digitsEntered', { n: otp.digits.length, total: OTP_LENGTH })}</span>
    </form>
  );
}
