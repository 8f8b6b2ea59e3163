import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { toast } from '../../components/toast';
import { isApiError } from '../../lib/api';
import { errorSummary } from '../../lib/apiErrors';
import { preventImeSubmit } from '../../lib/ime';
import { useOnline } from '../../lib/useOnline';
import { useDates } from '../../shared/useDates';
import { AddChannel } from './AddChannel';
import { channelErrors } from './channelErrors';
import { deleteChannel, testChannel, updateChannel, useChannels } from './channelsApi';
import { MAX_LABEL_CHARS, type Channel, type ChannelUse } from '../../shared/channels';
import './channels.css';

/**
 * Settings → Notification channels (decisions.md "Reach and rhythm", api.md "Channels"): the
 * person's channels besides Web Push and email, each with its status (failing said plainly),
 * whether it takes every ring and/or the fallback (saved at once), a test (once a minute),
 * a new name and removal; and a way to add one (./AddChannel). All of it is the server's:
 * offline the controls wait, and say so.
 */
export function ChannelsSection() {
  const { t } = useTranslation(['settings', 'errors']);
  const ids = useId();
  const channels = useChannels();
  const online = useOnline();
  const [busy, setBusy] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<Channel | null>(null);
  const [removing, setRemoving] = useState<Channel | null>(null);
  const list = channels.data ?? [];
  const offlineId = `${ids}-offline`;
  const describedBy = online ? undefined : offlineId;

  const replace = (saved: Channel) => (all: Channel[] | undefined) => (all ?? []).map((c) => (c.id === saved.id ? saved : c));

  async function setUse(c: Channel, part: keyof ChannelUse, on: boolean) {
    const key = `${c.id}:${part}`;
    if (busy === key) return;
    setBusy(key);
    const next: Channel = { ...c, use: { ...c.use, [part]: on } };
    try {
      await channels.mutate(
        async (all) => {
          const saved = await updateChannel(c.id, { use: { [part]: on } });
          return replace(saved ?? next)(all);
        },
        { optimisticData: replace(next), rollbackOnError: true, populateCache: true, revalidate: false },
      );
    } catch (err) {
      toast.error(isApiError(err) && err.code !== 'VALIDATION_FAILED' ? errorSummary(t, err) : t('channels.saveFailed'));
    } finally {
      setBusy(null);
    }
  }

  async function test(c: Channel) {
    setBusy(`${c.id}:test`);
    try {
      await testChannel(c.id);
      toast.success(t('channels.testSent', { name: c.label }));
    } catch (err) {
      if (isApiError(err, 'RATE_LIMITED')) {
        const seconds = err.retryAfter !== undefined && err.retryAfter > 0 ? Math.ceil(err.retryAfter) : null;
        toast.error(seconds ? t('channels.testWait', { seconds }) : t('channels.testWaitMinute'));
      } else {
        toast.error(errorSummary(t, err));
      }
    } finally {
      setBusy(null);
    }
  }

  async function remove(c: Channel) {
    setBusy(`${c.id}:remove`);
    try {
      await deleteChannel(c.id);
      setRemoving(null);
      toast.success(t('channels.removed', { name: c.label }));
      await channels.mutate((all) => (all ?? []).filter((x) => x.id !== c.id), { revalidate: true });
    } catch (err) {
      toast.error(errorSummary(t, err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card channels" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('channels.title')}</h2>
      <p className="hint">{t('channels.intro')}</p>
      {!online && (
        <p id={offlineId} className="hint">
          {t('channels.offline')}
        </p>
      )}
      {channels.error && !channels.data ? (
        <p className="muted">{online ? t('channels.loadFailed') : t('channels.loadLater')}</p>
      ) : list.length === 0 && channels.data ? (
        <p className="muted">{t('channels.none')}</p>
      ) : (
        <ul className="channel-list">
          {list.map((c) => (
            <ChannelItem
              key={c.id}
              channel={c}
              disabled={!online}
              busy={busy}
              describedBy={describedBy}
              onUse={(part, on) => void setUse(c, part, on)}
              onTest={() => void test(c)}
              onRename={() => setRenaming(c)}
              onRemove={() => setRemoving(c)}
            />
          ))}
        </ul>
      )}
      <AddChannel
        count={channels.data ? list.length : 0}
        online={online}
        onCreated={(made) => void channels.mutate((all) => [...(all ?? []).filter((c) => c.id !== made.id), made], { revalidate: true })}
      />
      <RenameDialog channel={renaming} online={online} onClose={() => setRenaming(null)} onSaved={(saved) => void channels.mutate(replace(saved), { revalidate: false })} />
      <ConfirmDialog
        open={removing !== null}
        title={removing ? t('channels.removeTitle', { name: removing.label }) : ''}
        cancel={t('channels.cancel')}
        confirm={t('channels.remove')}
        onConfirm={() => removing && void remove(removing)}
        onClose={() => setRemoving(null)}
        disabled={!online || busy !== null}
      >
        <p>{t('channels.removeText')}</p>
        {!online && <p className="hint">{t('channels.offline')}</p>}
      </ConfirmDialog>
    </section>
  );
}

function ChannelItem({
  channel: c,
  disabled,
  busy,
  describedBy,
  onUse,
  onTest,
  onRename,
  onRemove,
}: {
  channel: Channel;
  disabled: boolean;
  busy: string | null;
  describedBy: string | undefined;
  onUse: (part: keyof ChannelUse, on: boolean) => void;
  onTest: () => void;
  onRename: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('settings');
  const dates = useDates();
  const ids = useId();
  const statusHint = c.status === 'failing' ? 'channels.failingHint' : c.status === 'pending' ? 'channels.pendingHint' : null;
  const neither = !c.use.rings && !c.use.fallback;
  const hints = [statusHint ? `${ids}-status` : null, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <li className={`channel-item${c.status === 'failing' ? ' failing' : ''}`}>
      <div role="group" aria-labelledby={`${ids}-name`} aria-describedby={statusHint ? `${ids}-status` : undefined}>
        <p className="channel-label">
          <strong id={`${ids}-name`}>{c.label}</strong>
          <span className="badge muted">{t(`channels.kind.${c.kind}`)}</span>
          <span className={`badge${c.status === 'active' ? '' : ' warn'}`}>{t(`channels.status.${c.status}`)}</span>
        </p>
        {statusHint && (
          <p id={`${ids}-status`} className={c.status === 'failing' ? 'channel-status failing' : 'hint'}>
            {t(statusHint)}
          </p>
        )}
        <p className="muted small">{t('channels.added', { when: dates.when(c.created_at) })}</p>
        {(['rings', 'fallback'] as const).map((use) => (
          <label key={use} className="check">
            <input
              type="checkbox"
              role="switch"
              checked={c.use[use]}
              disabled={disabled}
              aria-describedby={describedBy}
              onChange={(e) => onUse(use, e.target.checked)}
            />
            <span>{t(`channels.${use}`)}</span>
          </label>
        ))}
        {neither && <p className="hint">{t('channels.neither')}</p>}
        <div className="row">
          <button
            type="button"
            className="button small secondary"
            disabled={disabled || busy !== null || c.status === 'pending'}
            aria-describedby={hints}
            aria-label={t('channels.testNamed', { name: c.label })}
            onClick={onTest}
          >
            {busy === `${c.id}:test` ? t('channels.testing') : t('channels.test')}
          </button>
          <button type="button" className="button small secondary" disabled={disabled} aria-describedby={describedBy} aria-label={t('channels.renameNamed', { name: c.label })} onClick={onRename}>
            {t('channels.rename')}
          </button>
          <button type="button" className="button small secondary" disabled={disabled} aria-describedby={describedBy} aria-label={t('channels.removeNamed', { name: c.label })} onClick={onRemove}>
            {t('channels.remove')}
          </button>
        </div>
      </div>
    </li>
  );
}

/** A channel's new name (1 to 60 characters), in a small dialog. */
function RenameDialog({
  channel,
  online,
  onClose,
  onSaved,
}: {
  channel: Channel | null;
  online: boolean;
  onClose: () => void;
  onSaved: (c: Channel) => void;
}) {
  const { t } = useTranslation(['settings', 'errors']);
  const ids = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  // A new channel to rename: its name as it is, no error.
  if (channel && shown !== channel.id) {
    setShown(channel.id);
    setName(channel.label);
    setError(null);
  }
  if (!channel && shown !== null) setShown(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!channel || busy) return;
    const label = name.trim();
    if (!label) return setError(t('channels.nameRequired'));
    if ([...label].length > MAX_LABEL_CHARS) return setError(t('channels.errors.labelTooLong', { max: MAX_LABEL_CHARS }));
    setBusy(true);
    setError(null);
    try {
      const saved = await updateChannel(channel.id, { label });
      onSaved(saved ?? { ...channel, label });
      toast.success(t('channels.renamed'));
      onClose();
    } catch (err) {
      const errs = channelErrors(t, err);
      setError(errs.label ?? errs.form ?? errorSummary(t, err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={channel !== null}
      title={t('channels.renameTitle')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button secondary" onClick={onClose}>
            {t('channels.cancel')}
          </button>
          <button type="submit" form={`${ids}-form`} className="button primary" disabled={busy || !online}>
            {t('channels.save')}
          </button>
        </>
      }
    >
      <form id={`${ids}-form`} onSubmit={(e) => void submit(e)} onKeyDown={preventImeSubmit} noValidate>
        <label htmlFor={`${ids}-name`}>{t('channels.name')}</label>
        <input
          id={`${ids}-name`}
          type="text"
          value={name}
          maxLength={MAX_LABEL_CHARS}
          autoComplete="off"
          required
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-err` : undefined}
        />
        {error && (
          <p id={`${ids}-err`} className="field-error" role="alert">
            {error}
          </p>
        )}
        {!online && <p className="hint">{t('channels.offline')}</p>}
      </form>
    </Dialog>
  );
}
