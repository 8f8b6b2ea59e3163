/**
 * A list's name and colour as the form holds them, the app's own checks (api.md: a name of 1–50
 * characters once trimmed) and the server's refusals in the person's language.
 */
import type { TFunction } from 'i18next';
import { isApiError } from '../../lib/api';
import { errorSummary, fieldErrorMessages } from '../../lib/apiErrors';
import type { ListColour } from '../../lib/types';

export const LIST_NAME_MAX = 50;
export const DEFAULT_COLOUR: ListColour = 'blue';

export interface ListFormValue {
  name: string;
  colour: ListColour;
}

/** The name's problem as an i18n key of `lists` (with its max), or null. Characters as the server counts them (code points). */
export function nameProblem(name: string): 'form.nameRequired' | 'form.nameTooLong' | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'form.nameRequired';
  if ([...trimmed].length > LIST_NAME_MAX) return 'form.nameTooLong';
  return null;
}

/** What the server said, where the form shows it: `name` beside the name field, anything else under the form. */
export interface ListFormError {
  field: 'name' | null;
  message: string;
}

/**
 * A refusal of POST/PUT/DELETE /api/lists in the reader's language (`t` with the lists and
 * errors namespaces): a member's FORBIDDEN and a list gone meanwhile have texts of their own;
 * LIST_LIMIT, DEFAULT_LIST and the name's validation read the errors namespace's texts.
 */
export function listErrorText(t: TFunction, e: unknown): ListFormError {
  if (isApiError(e, 'FORBIDDEN')) return { field: null, message: t('lists:errors.forbidden') };
  if (isApiError(e, 'NOT_FOUND')) return { field: null, message: t('lists:errors.notFound') };
  if (isApiError(e, 'ERR_NETWORK') || isApiError(e, 'TIMEOUT')) return { field: null, message: t('lists:errors.network') };
  if (isApiError(e, 'VALIDATION_FAILED')) {
    const byField = fieldErrorMessages(t, e);
    if (byField.name) return { field: 'name', message: byField.name };
  }
  return { field: null, message: errorSummary(t, e) };
}
