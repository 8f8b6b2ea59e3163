import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../components/Dialog';
import { preventImeSubmit } from '../../lib/ime';
import { curlExample } from './curlExample';
import { createToken, EXPIRY_CHOICES, MAX_TOKEN_NAME_CHARS, MAX_TOKENS, SCOPES, type ApiToken, type CreatedApiToken, type Scope } from './dataApi';
import { SCOPE_KEY, tokenErrors, type TokenErrors } from './tokenText';

/**
 * A new token: its name, what it may do (each scope with a line of what it allows) and when it
 * stops working; then, once, the token itself to copy, with a command to try it.
 */
export function NewToken({
  count,
  online,
  offlineId,
  onCreated,
}: {
  count: number;
  online: boolean;
  offlineId: string;
  onCreated: (made: ApiToken) => void;
}) {
  const { t } = useTranslation(['data', 'errors']);
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['reminders:read']);
  const [expiry, setExpiry] = useState<string>('none');
  const [errors, setErrors] = useState<TokenErrors>({});
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<CreatedApiToken | null>(null);
  const describedBy = online ? undefined : offlineId;
  const nameField = useRef<HTMLInputElement>(null);
  // The form appears where the button was: its first field takes the focus.
  useEffect(() => {
    if (open) nameField.current?.focus();
  }, [open]);

  function reset() {
    setName('');
    setScopes(['reminders:read']);
    setExpiry('none');
    setErrors({});
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !online) return;
    const label = name.trim();
    const problems: TokenErrors = {};
    if (!label) problems.name = t('tokens.errors.nameRequired');
    else if ([...label].length > MAX_TOKEN_NAME_CHARS) problems.name = t('tokens.errors.nameTooLong', { max: MAX_TOKEN_NAME_CHARS });
    if (scopes.length === 0) problems.scopes = t('tokens.errors.scopesRequired');
    if (Object.keys(problems).length > 0) return setErrors(problems);
    setBusy(true);
    setErrors({});
    try {
      const created = await createToken({
        name: label,
        scopes: SCOPES.filter((s) => scopes.includes(s)),
        ...(expiry === 'none' ? {} : { expires_in_days: Number(expiry) }),
      });
      // The list keeps what GET /api/tokens gives: never the token itself.
      const { token: _secret, ...listed } = created;
      onCreated(listed);
      setMade(created);
      setOpen(false);
      reset();
    } catch (err) {
      setErrors(tokenErrors(t, err));
    } finally {
      setBusy(false);
    }
  }

  if (made) return <MadeToken token={made} onDone={() => setMade(null)} />;
  if (!open) {
    return (
      <div className="add-token">
        <button type="button" className="button secondary" disabled={!online} aria-describedby={describedBy} onClick={() => setOpen(true)}>
          {t('tokens.add.open')}
        </button>
      </div>
    );
  }

  const field = (key: keyof TokenErrors) => (errors[key] ? `${ids}-${key}-err` : undefined);
  return (
    <form className="add-token-form" aria-labelledby={`${ids}-title`} onSubmit={(e) => void submit(e)} onKeyDown={preventImeSubmit} noValidate>
      <h3 id={`${ids}-title`}>{t('tokens.add.title')}</h3>
      <label htmlFor={`${ids}-name`}>{t('tokens.add.name')}</label>
      <input
        id={`${ids}-name`}
        type="text"
        value={name}
        maxLength={MAX_TOKEN_NAME_CHARS}
        autoComplete="off"
        required
        ref={nameField}
        onChange={(e) => {
          setName(e.target.value);
          setErrors(({ name: _n, ...rest }) => rest);
        }}
        aria-invalid={errors.name ? true : undefined}
        aria-describedby={[`${ids}-name-hint`, field('name')].filter(Boolean).join(' ')}
      />
      <p id={`${ids}-name-hint`} className="hint">
        {t('tokens.add.nameHint')}
      </p>
      {errors.name && (
        <p id={`${ids}-name-err`} className="field-error" role="alert">
          {errors.name}
        </p>
      )}

      <fieldset className="token-scope-choices" aria-describedby={field('scopes')}>
        <legend>{t('tokens.add.scopes')}</legend>
        {SCOPES.map((s) => (
          <label key={s} className="check">
            <input
              type="checkbox"
              checked={scopes.includes(s)}
              onChange={(e) => {
                setScopes((all) => (e.target.checked ? [...all, s] : all.filter((x) => x !== s)));
                setErrors(({ scopes: _s, ...rest }) => rest);
              }}
            />
            <span>
              <span className="token-scope-name">{t(`tokens.scope.${SCOPE_KEY[s]}`)}</span>
              <span className="hint">{t(`tokens.scopeHint.${SCOPE_KEY[s]}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {errors.scopes && (
        <p id={`${ids}-scopes-err`} className="field-error" role="alert">
          {errors.scopes}
        </p>
      )}

      <label htmlFor={`${ids}-expiry`}>{t('tokens.add.expiry')}</label>
      <select
        id={`${ids}-expiry`}
        value={expiry}
        onChange={(e) => {
          setExpiry(e.target.value);
          setErrors(({ expiry: _x, ...rest }) => rest);
        }}
        aria-invalid={errors.expiry ? true : undefined}
        aria-describedby={field('expiry')}
      >
        {EXPIRY_CHOICES.map((days) => (
          <option key={days ?? 'none'} value={days ?? 'none'}>
            {days === null ? t('tokens.add.expiryNone') : t('tokens.add.expiryDays', { count: days })}
          </option>
        ))}
      </select>
      {errors.expiry && (
        <p id={`${ids}-expiry-err`} className="field-error" role="alert">
          {errors.expiry}
        </p>
      )}

      <p className="hint">{t('tokens.add.count', { count, max: MAX_TOKENS })}</p>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button primary" disabled={busy || !online} aria-describedby={describedBy}>
          {busy ? t('tokens.add.creating') : t('tokens.add.create')}
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            setOpen(false);
            reset();
          }}
        >
          {t('tokens.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The new token, once: to copy, with why it will not show again and a command to try it. */
function MadeToken({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  const { t } = useTranslation('data');
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // The form it replaced is gone: focus moves here, the heading read first.
  useEffect(() => heading.current?.focus(), []);

  const [sendAt] = useState(() => {
    const d = new Date(Date.now() + 24 * 60 * 60 * 1000);
    d.setUTCMinutes(0, 0, 0);
    return d.toISOString().replace('.000Z', 'Z');
  });
  const example = curlExample(
    token.token,
    window.location.origin,
    token.scopes,
    token.scopes.includes('reminders:write') ? t('tokens.made.exampleTitle') : t('tokens.made.exampleList'),
    sendAt,
  );

  return (
    <section className="token-made" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} ref={heading} tabIndex={-1}>
        {t('tokens.made.title', { name: token.name })}
      </h3>
      <CopyField
        id={`${ids}-token`}
        label={t('tokens.made.label')}
        value={token.token}
        texts={{ copy: t('tokens.made.copy'), copied: t('tokens.made.copied'), copyFailed: t('tokens.made.copyFailed') }}
        describedBy={`${ids}-once`}
      />
      <p id={`${ids}-once`} className="notice compact">
        {t('tokens.made.once')}
      </p>
      <p className="token-try">
        <strong>{t('tokens.made.tryIt')}</strong> {t(`tokens.made.${example.kind}`)}
      </p>
      <pre className="token-curl">
        <code>{example.command}</code>
      </pre>
      <button type="button" className="button secondary" onClick={onDone}>
        {t('tokens.made.done')}
      </button>
    </section>
  );
}
