/**
 * A channel call's refusal, in the reader's language, at the place it concerns: the URL
 * (ENDPOINT_REJECTED, a `url` field), the access token, the name, the kind (CHANNEL_UNAVAILABLE)
 * or the form as a whole (CHANNEL_LIMIT and anything else).
 */
import type { TFunction } from 'i18next';
import { isApiError } from '../../lib/api';
import { errorSummary, fieldErrorMessages, fieldRoot } from '../../lib/apiErrors';
import type { ChannelKind } from '../../shared/channels';

export type ChannelErrorPlace = 'url' | 'token' | 'label' | 'kind' | 'form';
export type ChannelErrors = Partial<Record<ChannelErrorPlace, string>>;

const PLACES: readonly string[] = ['url', 'token', 'label'];

/** `t` has the settings and errors namespaces (`useTranslation(['settings', 'errors'])`). */
export function channelErrors(t: TFunction, e: unknown, kind?: ChannelKind): ChannelErrors {
  if (isApiError(e, 'ENDPOINT_REJECTED')) return { url: t('settings:channels.errors.endpointRejected') };
  if (isApiError(e, 'CHANNEL_UNAVAILABLE')) return { kind: t('settings:channels.add.unavailableError', { kind: kind ? t(`settings:channels.kind.${kind}`) : '' }) };
  if (isApiError(e, 'CHANNEL_LIMIT')) return { form: t('settings:channels.add.limit') };
  if (!isApiError(e, 'VALIDATION_FAILED')) return { form: errorSummary(t, e) };

  const out: ChannelErrors = {};
  for (const d of e.details ?? []) {
    const root = fieldRoot(d.field);
    if (root === 'url') {
      out.url ??=
        d.code === 'required'
          ? t('settings:channels.errors.urlRequired')
          : kind === 'ntfy'
            ? t('settings:channels.errors.ntfyUrl')
            : t('settings:channels.errors.urlFormat');
    } else if (root === 'token') {
      out.token ??= t('settings:channels.errors.token');
    } else if (root === 'label' && d.code === 'too_long') {
      out.label ??= t('settings:channels.errors.labelTooLong', { max: Number(d.params?.max ?? 60) });
    }
  }
  // Anything else (an older server's `fields` without details, another field): its generic text.
  for (const [root, text] of Object.entries(fieldErrorMessages(t, e))) {
    const place = (PLACES.includes(root) ? root : 'form') as ChannelErrorPlace;
    out[place] ??= text;
  }
  if (Object.keys(out).length === 0) out.form = errorSummary(t, e);
  return out;
}
