import { useTranslation } from 'react-i18next';
import type { Operator } from '../../lib/types';
import { useSite } from '../../shared/useSite';

type Field = keyof Operator;

// The commercial-transaction act asks for every detail; the other pages name who runs the
// service and how to reach them.
const FIELDS: Record<'privacy' | 'terms' | 'commercial', Field[]> = {
  privacy: ['name', 'contact'],
  terms: ['name', 'contact'],
  commercial: ['name', 'representative', 'address', 'phone', 'contact'],
};

function ContactValue({ value }: { value: string }) {
  if (/^[^@\s]+@[^@\s]+$/.test(value)) return <a href={`mailto:${value}`}>{value}</a>;
  if (/^https?:\/\//.test(value)) return <a href={value}>{value}</a>;
  return <>{value}</>;
}

/**
 * Who runs this Hibiki, from the server's configuration (`HIBIKI_OPERATOR_*`). The privacy and
 * terms pages show only the details the operator gave (none: no section at all); the
 * commercial-transaction-act page lists every detail the act asks for, and one not given is
 * "disclosed without delay on request".
 */
export function OperatorDetails({ doc }: { doc: 'privacy' | 'terms' | 'commercial' }) {
  const { t } = useTranslation('info');
  const { data, error } = useSite();
  const operator: Partial<Operator> = data?.operator ?? {};
  const commercial = doc === 'commercial';
  const given = FIELDS[doc].filter((field) => operator[field]);
  // Privacy and terms: nothing to show until the details are there, and nothing if none is given.
  if (!commercial && given.length === 0) return null;
  // Commercial: nothing configured is one sentence instead of the same words on every row.
  const noneGiven = data !== undefined && given.length === 0;
  const rows = commercial ? FIELDS[doc] : given;
  return (
    <section className="operator-details" aria-busy={!data && !error}>
      <h2>{t('operator.heading')}</h2>
      {noneGiven ? (
        <p>{t('operator.allOnRequest')}</p>
      ) : (
        <dl>
          {rows.map((field) => {
            const value = operator[field];
            return (
              <div key={field}>
                <dt>{t(commercial && field === 'name' ? 'operator.seller' : `operator.${field}`)}</dt>
                <dd>{value ? field === 'contact' ? <ContactValue value={value} /> : value : data ? <span className="muted">{t('operator.onRequest')}</span> : '…'}</dd>
              </div>
            );
          })}
        </dl>
      )}
    </section>
  );
}
