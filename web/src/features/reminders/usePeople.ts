import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/authStore';
import { swrKeys } from '../../lib/swrKeys';
import { useListMembers } from '../../shared/listMembers';

/** How many next occurrences the details list (and whose turn they are): one request for the details, the card and the dialog. */
export const UPCOMING = 5;

/**
 * The people of a shared list (`listId`; null: not shared, nothing fetched) as the reminders
 * name them: the reader is "you", anyone else their address, someone no longer in the list a
 * former member; null while the people are not known (offline, loading).
 */
export function usePeople(listId: string | null) {
  const { t } = useTranslation('reminders');
  const me = useAuth().user?.id;
  const { data: members } = useListMembers(listId);
  const nameOf = (id: string | null | undefined): string | null => {
    if (!id) return null;
    if (id === me) return t('assign.you');
    if (!members) return null;
    return members.find((m) => m.user_id === id)?.email ?? t('assign.formerMember');
  };
  return { members, me, nameOf };
}

/** A reminder's next occurrences (and, rotating, whose turn each is); `id` null: not fetched. */
export function useOccurrences(id: string | null) {
  return useSWR(id === null ? null : swrKeys.occurrences(id, UPCOMING), ([, rid, n]) => api.reminders.occurrences(rid, n));
}
