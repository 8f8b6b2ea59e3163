import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast';
import { subscribeConflicts, takeConflicts } from '../../lib/offline/conflictReports';
import { conflictToastText } from '../../lib/offline/conflictText';

/**
 * Tells the person what happened when a change they made offline met someone else's (a shared
 * list's reminder deleted or completed meanwhile): a toast, in the app's language. Renders
 * nothing; conflicts reported before it mounted are told as it mounts.
 */
export function SyncConflictNotice() {
  const { t, ready } = useTranslation('offline', { useSuspense: false });
  useEffect(() => {
    if (!ready) return;
    const tell = () => {
      const text = conflictToastText(t, takeConflicts());
      // A warning, not an error: nothing failed, the other person's change was kept.
      if (text) toast.warning(text);
    };
    tell();
    return subscribeConflicts(tell);
  }, [t, ready]);
  return null;
}
