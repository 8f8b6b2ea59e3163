import { useTranslation } from 'react-i18next';
import type { Operator } from '../lib/types';
import { useSite } from './useSite';

/** Each operator detail and the server setting that gives it (common/src/infra/config.rs). */
const SETTINGS: readonly [keyof Operator, string][] = [
  ['name', 'HIBIKI_OPERATOR_NAME'],
  ['contact', 'HIBIKI_OPERATOR_CONTACT'],
  ['representative', 'HIBIKI_OPERATOR_REPRESENTATIVE'],
  ['address', 'HIBIKI_OPERATOR_ADDRESS'],
  ['phone', 'HIBIKI_OPERATOR_PHONE'],
];

/** The operator settings this server has not been given. */
export function missingOperatorSettings(operator: Partial<Operator> | undefined): [keyof Operator, string][] {
  return SETTINGS.filter(([field]) => !operator?.[field]);
}

/**
 * For the operator (the admin and status pages, seen by an admin): which operator settings are
 * missing and what each is for. The legal pages leave out what is missing, so this is where the
 * operator learns of it. Nothing while the details load, or when all are given.
 */
export function OperatorSetupNotice() {
  const { t } = useTranslation('admin');
  const { data } = useSite();
  if (!data) return null;
  const missing = missingOperatorSettings(data.operator);
  if (missing.length === 0) return null;
  return (
    <section className="notice warning operator-setup" aria-labelledby="operator-setup-title">
      <h2 id="operator-setup-title">{t('operatorSetup.title')}</h2>
      <p>{t('operatorSetup.intro')}</p>
      <ul>
        {missing.map(([field, setting]) => (
          <li key={field}>
            <code>{setting}</code>: {t(`operatorSetup.fields.${field}`)}
          </li>
        ))}
      </ul>
      <p>{t('operatorSetup.how')}</p>
    </section>
  );
}
