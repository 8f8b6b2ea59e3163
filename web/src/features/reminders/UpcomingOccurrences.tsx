import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/Spinner';

/** A reminder's next occurrences from the server (its details' first list). */
export function UpcomingOccurrences({
  id,
  loading,
  failed,
  occurrences,
  when,
}: {
  id: string;
  loading: boolean;
  failed: boolean;
  occurrences: readonly string[];
  /** a time in the reminder's zone */
  when: (iso: string) => string;
}) {
  const { t } = useTranslation('reminders');
  return (
    <section aria-labelledby={`occ-${id}`}>
      <h3 id={`occ-${id}`}>{t('details.upcoming')}</h3>
      {loading ? (
        <Spinner />
      ) : failed ? (
        <p className="muted">{t('details.loadFailed')}</p>
      ) : (
        <ol className="occurrences">
          {occurrences.map((iso) => (
            <li key={iso}>{when(iso)}</li>
          ))}
        </ol>
      )}
    </section>
  );
}
