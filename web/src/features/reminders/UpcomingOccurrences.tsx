import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/Spinner';
import type { Ring } from '../../lib/types';

/**
 * A reminder's next notifications from the server (its details' first list): every ring to
 * come in time order, each but a plain occurrence saying what it is (an alert, a repeat, the
 * snooze). The server lists nothing past. An older server answers only the occurrences.
 */
export function UpcomingOccurrences({
  id,
  loading,
  failed,
  occurrences,
  rings,
  when,
}: {
  id: string;
  loading: boolean;
  failed: boolean;
  occurrences: readonly string[];
  rings?: readonly Ring[] | null;
  /** a time in the reminder's zone */
  when: (iso: string) => string;
}) {
  const { t } = useTranslation('reminders');
  const list: readonly Pick<Ring, 'at' | 'kind'>[] = rings ?? occurrences.map((at) => ({ at, kind: 'occurrence' as const }));
  return (
    <section aria-labelledby={`occ-${id}`}>
      <h3 id={`occ-${id}`}>{t('details.upcoming')}</h3>
      {loading ? (
        <Spinner />
      ) : failed ? (
        <p className="muted">{t('details.loadFailed')}</p>
      ) : list.length === 0 ? (
        <p className="muted">{t('details.nothingUpcoming')}</p>
      ) : (
        <ol className="occurrences">
          {list.map((ring) => (
            <li key={`${ring.kind}-${ring.at}`}>
              {when(ring.at)}
              {ring.kind !== 'occurrence' && <span className="badge muted">{t(`details.ring.${ring.kind}`)}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
