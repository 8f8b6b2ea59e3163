import { useTranslation } from 'react-i18next';
import type { Operator } from '../../lib/types';
import { useSite } from './useSite';

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

/** Who runs this Hibiki, from the server's configuration (`HIBIKI_OPERATOR_*`). */
export function OperatorDetails({ doc }: { doc: 'privacy' | 'terms' | 'commercial' }) {
  const { t } = useTranslation('info');
  const { data, error } = useSite();
  const operator: Partial<Operator> = data?.operator ?? {};
  const missing = doc === 'commercial' ? t('operator.onRequest') : t('operator.notGiven');
  // Nothing configured: one sentence instead of the same words on every row.
  const noneGiven = data !== undefined && FIELDS[doc].every((field) => !operator[field]);
  return (
    <section className="operator-details" aria-busy={!data && !error}>
      <h2>{t('operator.heading')}</h2>
      {noneGiven ? (
        <p>{t(doc === 'commercial' ? 'operator.allOnRequest' : 'operator.noneGiven')}</p>
      ) : (
        <dl>
          {FIELDS[doc].map((field) => {
            const value = operator[field];
            return (
              <div key={field}>
                <dt>{t(doc === 'commercial' && field === 'name' ? 'operator.seller' : `operator.${field}`)}</dt>
                <dd>{value ? field === 'contact' ? <ContactValue value={value} /> : value : data ? <span className="muted">{missing}</span> : '…'}</dd>
              </div>
            );
          })}
        </dl>
      )}
    </section>
  );
}
