import { isApiError } from '../../lib/api';

/** Maps an API error from the auth endpoints to an i18n key (namespace `auth` unless it names one) and params. */
export function authErrorKey(e: unknown, fallback: string): { key: string; params?: Record<string, unknown> } {
  if (!isApiError(e)) return { key: fallback };
  switch (e.code) {
    // the auth helper's own refusals of an address, before any request
    case 'EMAIL_REQUIRED':
      return { key: 'errors.emailAddressRequired' };
    case 'EMAIL_FORMAT':
      return { key: 'errors.emailFormat' };
    // a verify answer without a user (afterSignIn's check)
    case 'INVALID_OTP_RESPONSE':
      return { key: 'errors.invalidOtpResponse' };
    case 'INVALID_AUTH_RESPONSE':
      return { key: 'errors.invalidAuthResponse' };
    case 'EMAIL_INVALID':
      return { key: 'errors.emailInvalid' };
    case 'OTP_INVALID':
      return { key: 'errors.otpInvalid' };
    case 'OTP_EXPIRED':
      return { key: 'errors.otpExpired' };
    case 'OTP_REPLACED':
      // a code a resend replaced: use the newest email (its text is in the lazy `errors` namespace,
      // which the code step loads with its own)
      return { key: 'errors:code.OTP_REPLACED' };
    case 'OTP_ATTEMPTS_EXCEEDED':
      return { key: 'errors.otpAttempts' };
    case 'LINK_INVALID':
      return { key: 'errors.linkInvalid' };
    case 'RATE_LIMITED':
      return e.retryAfter !== undefined && e.retryAfter <= 60
        ? { key: 'errors.retryAfter', params: { seconds: e.retryAfter } }
        : { key: 'errors.rateLimited' };
    case 'ERR_NETWORK':
      return { key: 'errors.network' };
    case 'TIMEOUT':
      return { key: 'errors.timeout' };
    default:
      return { key: fallback };
  }
}

/** The developer shortcut addresses (decisions.md: only with HIBIKI_DEV_LOGIN=1 on the server). */
export const DEV_LOGIN_EMAILS = ['dev@example.com', 'test@example.com', 'demo@example.com', 'admin@example.com'];

export function isDevLoginEmail(email: string): boolean {
  return DEV_LOGIN_EMAILS.includes(email.trim().toLowerCase());
}
