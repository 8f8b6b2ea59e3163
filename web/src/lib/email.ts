/**
 * Email validation (product spec section 5): required, then the format
 * "non-space text, an at sign, non-space text, a dot, then more text".
 */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

/** What is wrong with an address (trimmed) by that rule: it is missing, or not in that form. */
export function emailProblem(value: string): 'required' | 'format' | null {
  const v = value.trim();
  return v === '' ? 'required' : EMAIL_PATTERN.test(v) ? null : 'format';
}

/** i18n keys (namespace `auth`) for the login form's messages. */
export type EmailErrorKey = 'errors.emailRequired' | 'errors.emailInvalid';

/** The login form's own check, as the address is edited: the spec's form messages. */
export function validateEmail(value: string): EmailErrorKey | null {
  const problem = emailProblem(value);
  return problem === 'required' ? 'errors.emailRequired' : problem ? 'errors.emailInvalid' : null;
}
