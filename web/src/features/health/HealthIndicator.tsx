import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/LangLink';
import { usePopover } from '../../components/usePopover';
import { HealthChecklist, StatusDot } from '../../shared/health/HealthChecklist';
import { useHealth } from '../../shared/health/useHealth';

/** Header health indicator: a dot with the overall status; opens a small panel. */
export function HealthIndicator() {
  const { t } = useTranslation('health');
  const { checks, advice, device, overall, refresh } = useHealth();
  const { open, toggle, close, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>();
  const panelId = useId();
  return (
    <div className="health-indicator" ref={root}>
      <button
        ref={trigger}
        type="button"
        className="button small ghost header-icon"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={toggle}
        title={t('indicatorLabel', { status: t(`status.${overall}`) })}
      >
        <StatusDot status={overall} />
        <span className="sr-only">{t('indicatorLabel', { status: t(`status.${overall}`) })}</span>
      </button>
      {open && (
        <div className="popover" id={panelId} role="region" aria-label={t('title')}>
          <h2 className="popover-title">{t('title')}</h2>
          <HealthChecklist checks={checks} advice={advice} device={device} />
          <div className="row between">
            <button type="button" className="button small secondary" onClick={refresh}>
              {t('refresh')}
            </button>
            <LangLink to="/guide#troubleshooting" onClick={close}>
              {t('troubleshooting')}
            </LangLink>
          </div>
        </div>
      )}
    </div>
  );
}
