/**
 * Email validation (product spec section 5): required, then the format
 * "non-space text, an at sign, non-space text, a dot, then more text".
 */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

/** i18n keys (namespace `auth`) for the login form's messages. */
export type EmailErrorKey = 'errors.emailRequired' | 'errors.emailInvalid';

export function validateEmail(value: string): EmailErrorKey | null {
  const v = value.trim();
  if (v === '') return 'errors.emailRequired';
  if (!EMAIL_PATTERN.test(v)) return 'errors.emailInvalid';
  return null;
}

/** The auth helper's own check: throws 'Email address is required' / 'Invalid email format'. */
export function assertEmail(value: string): string {
  const v = value.trim();
  if (v === '') throw new Error('Email address is required');
  if (!EMAIL_PATTERN.test(v)) throw new Error('Invalid email format');
  return v;
}
