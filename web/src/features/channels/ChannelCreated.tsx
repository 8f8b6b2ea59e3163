import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../components/Dialog';
import type { CreatedChannel } from '../../shared/channels';

/** What a webhook delivery's body looks like (api.md "Channels"), shown as an example. */
const WEBHOOK_EXAMPLE = `{
  "type": "reminder.ring",
  "timestamp": "2025-05-01T08:00:00Z",
  "data": {
    "reminder_id": "…",
    "log_id": "…",
    "kind": "occurrence",
    "occurrence_at": "2025-05-01T08:00:00Z",
    "title": "…",
    "body": "…",
    "actions": {
      "complete": "https://…/api/actions/…/complete?t=…",
      "snooze": "https://…/api/actions/…/snooze?t=…"
    }
  }
}`;

/**
 * Right after adding: a webhook's signing secret, once, to copy (with what its deliveries look
 * like); Telegram's link to press Start in; LINE's friend link and the code to send the bot.
 */
export function ChannelCreated({ channel, onDone }: { channel: CreatedChannel; onDone: () => void }) {
  const { t } = useTranslation('settings');
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const secret = channel.secret ?? null;
  const code = channel.code ?? null;

  // Focus moves here (the form it replaced is gone): the heading is read, then what to copy.
  useEffect(() => heading.current?.focus(), []);

  const copyable = secret ?? code;
  return (
    <section className="channel-created" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} ref={heading} tabIndex={-1}>
        {secret ? t('channels.secret.title', { name: channel.label }) : t('channels.linking.title', { name: channel.label })}
      </h3>
      {channel.link && (
        <>
          <p>{t('channels.linking.telegram')}</p>
          <p>
            <a className="button primary" href={channel.link} target="_blank" rel="noopener noreferrer">
              {t('channels.linking.openTelegram')}
            </a>
          </p>
        </>
      )}
      {channel.friend_url && (
        <>
          <p>{t('channels.linking.line')}</p>
          <p>
            <a className="button primary" href={channel.friend_url} target="_blank" rel="noopener noreferrer">
              {t('channels.linking.addFriend')}
            </a>
          </p>
        </>
      )}
      {copyable && (
        <>
          <CopyField
            id={`${ids}-copy`}
            label={secret ? t('channels.secret.label') : t('channels.linking.code')}
            value={copyable}
            texts={{ copy: t('channels.secret.copy'), copied: t('channels.secret.copied'), copyFailed: t('channels.secret.copyFailed') }}
            describedBy={secret ? `${ids}-once` : undefined}
          />
        </>
      )}
      {secret && (
        <>
          <p id={`${ids}-once`} className="notice compact">
            {t('channels.secret.copyNow')}
          </p>
          <p className="hint">{t('channels.secret.payload')}</p>
          <pre className="channel-payload">
            <code>{WEBHOOK_EXAMPLE}</code>
          </pre>
        </>
      )}
      {(channel.link || channel.friend_url || code) && <p className="hint">{t('channels.linking.after')}</p>}
      <button type="button" className="button secondary" onClick={onDone}>
        {t('channels.secret.done')}
      </button>
    </section>
  );
}
