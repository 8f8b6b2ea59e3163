/** The words for a token's scopes, and a refusal of the token form at the field it concerns. */
import type { TFunction } from 'i18next';
import { isApiError } from '../../lib/api';
import { errorSummary, fieldRoot } from '../../lib/apiErrors';
import { MAX_TOKEN_NAME_CHARS, MAX_TOKENS, type Scope } from './dataApi';

/** `reminders:read` → the key of its words under tokens.scope / tokens.scopeHint. */
export const SCOPE_KEY = {
  'reminders:read': 'remindersRead',
  'reminders:write': 'remindersWrite',
  'lists:read': 'listsRead',
  'lists:write': 'listsWrite',
} as const satisfies Record<Scope, string>;

export type TokenErrors = Partial<Record<'name' | 'scopes' | 'expiry' | 'form', string>>;

/** `t` has the data and errors namespaces (`useTranslation(['data', 'errors'])`). */
export function tokenErrors(t: TFunction, e: unknown): TokenErrors {
  if (isApiError(e, 'TOKEN_LIMIT')) return { form: t('data:tokens.add.limit', { max: MAX_TOKENS }) };
  if (!isApiError(e, 'VALIDATION_FAILED')) return { form: isApiError(e) ? errorSummary(t, e) : t('data:tokens.add.failed') };
  const out: TokenErrors = {};
  for (const d of e.details ?? []) {
    const root = fieldRoot(d.field);
    if (root === 'name') {
      out.name ??=
        d.code === 'too_long'
          ? t('data:tokens.errors.nameTooLong', { max: Number(d.params?.max ?? MAX_TOKEN_NAME_CHARS) })
          : d.code === 'required'
            ? t('data:tokens.errors.nameRequired')
            : t('data:tokens.errors.nameCharacters');
    } else if (root === 'scopes') {
      out.scopes ??= t('data:tokens.errors.scopesRequired');
    } else if (root === 'expires_in_days') {
      out.expiry ??= t('data:tokens.errors.expiry');
    }
  }
  if (Object.keys(out).length === 0) out.form = errorSummary(t, e);
  return out;
}
