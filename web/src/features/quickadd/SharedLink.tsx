import { useTranslation } from 'react-i18next';

/** Under quick add: the link shared to the app, which goes into the reminder's description. */
export default function SharedLink({ url }: { url: string }) {
  const { t } = useTranslation('automations');
  return (
    <p className="small muted quick-add-link" data-testid="quick-add-link">
      {t('share.link', { url })}
    </p>
  );
}
