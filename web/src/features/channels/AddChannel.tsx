import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast';
import { preventImeSubmit } from '../../lib/ime';
import { channelErrors, type ChannelErrors } from './channelErrors';
import { ChannelCreated } from './ChannelCreated';
import { createChannel } from './channelsApi';
import { KIND_PARTS, newChannel, urlError } from './channelKinds';
import { CHANNEL_KINDS, MAX_CHANNELS, type Channel, type ChannelKind, type CreatedChannel, type NewChannel } from '../../shared/channels';

/**
 * Settings → Notification channels → Add a channel: an ntfy topic (its URL and an optional
 * access token, after three short steps), a webhook (its URL; its signing secret is shown once,
 * right after) or Telegram / LINE. Telegram and LINE are offered and tried on "Link": where the
 * operator has not enabled them the server answers CHANNEL_UNAVAILABLE, and the option then
 * says "Not enabled on this server" and can no longer be chosen (for this visit of the page).
 * Refusals show at their field: an unsafe URL (ENDPOINT_REJECTED) and the URL's and token's
 * checks at theirs, the limit of 10 at the form.
 */
export function AddChannel({ count, online, onCreated }: { count: number; online: boolean; onCreated: (c: Channel) => void }) {
  const { t } = useTranslation(['settings', 'errors']);
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ChannelKind>('ntfy');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<ChannelErrors>({});
  const [busy, setBusy] = useState(false);
  const [unavailable, setUnavailable] = useState<readonly ChannelKind[]>([]);
  // What the server shows only once (a webhook's secret) or what linking needs (Telegram, LINE).
  const [created, setCreated] = useState<CreatedChannel | null>(null);
  // The form or the panel that had focus is gone: focus goes back to "Add a channel".
  const opener = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    if (!refocus) return;
    opener.current?.focus();
    setRefocus(false);
  }, [refocus]);
  const full = count >= MAX_CHANNELS;
  const needsUrl = KIND_PARTS[kind].url !== null;
  const off = !online || busy;

  function reset() {
    setUrl('');
    setToken('');
    setErrors({});
  }

  function choose(k: ChannelKind) {
    setKind(k);
    setErrors({});
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (off || unavailable.includes(kind)) return;
    const address = url.trim();
    const urlProblem = urlError(kind, address);
    if (urlProblem) return setErrors({ url: t(urlProblem) });
    const input: NewChannel = newChannel(kind, address, token);
    setBusy(true);
    setErrors({});
    try {
      const made = await createChannel(input);
      const { secret: _secret, link: _link, code: _code, friend_url: _friend, ...channel } = made;
      onCreated(channel);
      reset();
      if (made.secret || made.link || made.code || made.friend_url) setCreated(made);
      else {
        setOpen(false);
        setRefocus(true);
      }
      toast.success(t('channels.add.added', { name: made.label }));
    } catch (err) {
      const errs = channelErrors(t, err, kind);
      if (errs.kind) setUnavailable((u) => (u.includes(kind) ? u : [...u, kind]));
      setErrors(errs);
    } finally {
      setBusy(false);
    }
  }

  if (created)
    return (
      <ChannelCreated
        channel={created}
        onDone={() => {
          setCreated(null);
          setOpen(false);
          setRefocus(true);
        }}
      />
    );

  const err = (place: keyof ChannelErrors) =>
    errors[place] ? (
      <p id={`${ids}-${place}-err`} className="field-error" role="alert">
        {errors[place]}
      </p>
    ) : null;
  const urlHints = [errors.url ? `${ids}-url-err` : null, kind === 'ntfy' ? `${ids}-steps` : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className="add-channel">
      <button
        ref={opener}
        type="button"
        className={`button ${open ? 'secondary' : 'primary'}`}
        aria-expanded={open}
        aria-controls={`${ids}-form`}
        disabled={full && !open}
        aria-describedby={full ? `${ids}-full` : undefined}
        onClick={() => {
          setOpen((o) => !o);
          reset();
        }}
      >
        {t('channels.add.open')}
      </button>
      {full && (
        <p id={`${ids}-full`} className="hint">
          {t('channels.add.limit')}
        </p>
      )}
      {open && (
        <form id={`${ids}-form`} className="add-channel-form" aria-label={t('channels.add.open')} onSubmit={(e) => void submit(e)} onKeyDown={preventImeSubmit} noValidate>
          <fieldset className="channel-kinds" aria-describedby={errors.kind ? `${ids}-kind-err` : undefined}>
            <legend>{t('channels.add.kind')}</legend>
            {CHANNEL_KINDS.map((k) => {
              const no = unavailable.includes(k);
              return (
                <label key={k} className="check">
                  <input type="radio" name={`${ids}-kind`} value={k} checked={kind === k} disabled={no} aria-describedby={`${ids}-${k}-hint`} onChange={() => choose(k)} />
                  <span>
                    <span className="channel-kind-name">{t(`channels.kind.${k}`)}</span>
                    <span id={`${ids}-${k}-hint`} className="hint">
                      {no ? t('channels.add.unavailable') : t(`channels.add.hint.${k}`)}
                    </span>
                  </span>
                </label>
              );
            })}
            {err('kind')}
          </fieldset>

          {kind === 'ntfy' && (
            <ol id={`${ids}-steps`} className="channel-steps">
              <li>{t('channels.add.ntfyStep1')}</li>
              <li>{t('channels.add.ntfyStep2')}</li>
              <li>{t('channels.add.ntfyStep3')}</li>
            </ol>
          )}
          {KIND_PARTS[kind].intro && <p className="hint">{t(KIND_PARTS[kind].intro)}</p>}

          {needsUrl && (
            <>
              <label htmlFor={`${ids}-url`}>{t(KIND_PARTS[kind].url?.label ?? '')}</label>
              <input
                id={`${ids}-url`}
                type="url"
                inputMode="url"
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                placeholder={KIND_PARTS[kind].url?.placeholder}
                value={url}
                onChange={(e) => {
                  setUrl(e.target.value);
                  setErrors(({ url: _url, form: _form, ...rest }) => rest);
                }}
                aria-invalid={errors.url ? true : undefined}
                aria-describedby={urlHints}
              />
              {err('url')}
            </>
          )}
          {kind === 'ntfy' && (
            <>
              <label htmlFor={`${ids}-token`}>{t('channels.add.token')}</label>
              <input
                id={`${ids}-token`}
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={token}
                onChange={(e) => {
                  setToken(e.target.value);
                  setErrors(({ token: _token, form: _form, ...rest }) => rest);
                }}
                aria-invalid={errors.token ? true : undefined}
                aria-describedby={[`${ids}-token-hint`, errors.token ? `${ids}-token-err` : null].filter(Boolean).join(' ')}
              />
              <p id={`${ids}-token-hint`} className="hint">
                {t('channels.add.tokenHint')}
              </p>
              {err('token')}
            </>
          )}

          {err('form')}
          <div className="row">
            <button type="submit" className="button primary" disabled={off || unavailable.includes(kind)} aria-describedby={errors.kind ? `${ids}-kind-err` : undefined}>
              {busy ? t('channels.add.adding') : needsUrl ? t('channels.add.submit') : t('channels.add.link')}
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                setOpen(false);
                reset();
                setRefocus(true);
              }}
            >
              {t('channels.cancel')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
