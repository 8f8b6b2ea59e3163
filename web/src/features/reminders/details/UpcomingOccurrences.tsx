import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/Spinner';
import type { Ring } from '../../../lib/types';

/**
 * A reminder's next notifications from the server (its details' first list): every ring to
 * come in time order, each but a plain occurrence saying what it is (an alert, a repeat, the
 * snooze). The server lists nothing past. An older server answers only the occurrences. Taking
 * turns, each occurrence says whose turn it is (`turns`, the answer's user id per occurrence).
 */
export function UpcomingOccurrences({
  id,
  loading,
  failed,
  occurrences,
  rings,
  when,
  turns,
  nameOf,
}: {
  id: string;
  loading: boolean;
  failed: boolean;
  occurrences: readonly string[];
  rings?: readonly Ring[] | null;
  /** a time in the reminder's zone */
  when: (iso: string) => string;
  /** with rotation, whose turn each of `occurrences` is */
  turns?: readonly string[] | null;
  nameOf?: (id: string) => string | null;
}) {
  const { t } = useTranslation('reminders');
  const list: readonly Pick<Ring, 'at' | 'kind'>[] = rings ?? occurrences.map((at) => ({ at, kind: 'occurrence' as const }));
  const turnAt = new Map(turns && nameOf ? occurrences.map((at, i) => [Date.parse(at), turns[i] ? nameOf(turns[i]) : null]) : []);
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
          {list.map((ring) => {
            const who = ring.kind === 'occurrence' ? turnAt.get(Date.parse(ring.at)) : null;
            return (
              <li key={`${ring.kind}-${ring.at}`}>
                {when(ring.at)}
                {ring.kind !== 'occurrence' && <span className="badge muted">{t(`details.ring.${ring.kind}`)}</span>}
                {who && <span className="badge muted">{t('assign.turn', { name: who })}</span>}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
