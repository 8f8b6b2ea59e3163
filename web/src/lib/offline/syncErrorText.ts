import type { TFunction } from 'i18next';
import { errorSummary } from '../apiErrors';
import type { PendingAction } from './syncQueue';

/** The "Sync error" notification for a dropped action, in the reader's language (namespaces offline and errors). */
export function syncErrorNotification(t: TFunction, action: PendingAction, error: unknown): { title: string; body: string } {
  return {
    title: t('offline:syncError.title'),
    body: t(`offline:syncError.${action.type}`, { reason: errorSummary(t, error) }),
  };
}
