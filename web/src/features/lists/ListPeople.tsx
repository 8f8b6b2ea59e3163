import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR, { useSWRConfig } from 'swr';
import { toast } from '../../components/toast';
import { errorSummary } from '../../lib/apiErrors';
import { useAuth } from '../../lib/authStore';
import { validateEmail } from '../../lib/email';
import { isReminderKey, swrKeys } from '../../lib/swrKeys';
import type { List } from '../../lib/types';
import { useListMembers } from '../../shared/listMembers';
import { cancelInvite, fetchInvites, removeMember, sendInvite } from './listsApi';

/**
 * The people in a list (decisions.md "Households"): everyone in it with their address and
 * part; its owner invites by email, sees the pending invitations (and cancels them) and removes
 * members; a member leaves. All of it needs the network: offline the buttons are disabled and
 * `offlineReason` (an element's id) says why.
 */
export function ListPeople({ list, online, offlineReason, onLeft }: { list: List; online: boolean; offlineReason?: string; onLeft?: () => void }) {
  const { t } = useTranslation(['lists', 'errors']);
  const ids = useId();
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const own = list.role === 'owner';
  const members = useListMembers(list.id);
  const invites = useSWR(own ? swrKeys.listInvites(list.id) : null, () => fetchInvites(list.id));
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const refresh = () => Promise.all([members.mutate(), own ? invites.mutate() : undefined, mutate(swrKeys.lists())]);

  async function invite(e: FormEvent) {
    e.preventDefault();
    const local = validateEmail(email);
    if (local) {
      setError(t(`lists:people.emailInvalid`));
      return;
    }
    setBusy('invite');
    setError(null);
    try {
      const made = await sendInvite(list.id, email.trim());
      setEmail('');
      toast.success(t('lists:people.invited', { email: made.email }));
      await refresh();
    } catch (err) {
      setError(errorSummary(t, err));
    } finally {
      setBusy(null);
    }
  }

  async function act(key: string, run: () => Promise<void>, done: string) {
    setBusy(key);
    setError(null);
    try {
      await run();
      toast.success(done);
      await refresh();
      return true;
    } catch (err) {
      setError(errorSummary(t, err));
      return false;
    } finally {
      setBusy(null);
    }
  }

  async function leave() {
    if (!user) return;
    const left = await act('leave', () => removeMember(list.id, user.id), t('lists:people.left', { name: list.name }));
    if (left) {
      await mutate(isReminderKey);
      onLeft?.();
    }
  }

  const disabled = !online || busy !== null;
  return (
    <section className="list-people" aria-label={t('lists:people.heading', { name: list.name })}>
      {members.error && !members.data ? (
        <p className="muted small">{online ? t('lists:people.loadFailed') : t('lists:manage.offline')}</p>
      ) : (
        <ul className="list-people-members">
          {(members.data ?? []).map((m) => (
            <li key={m.user_id}>
              <span className="list-people-email">{m.email}</span>
              <span className="badge muted">{t(`lists:people.role.${m.role}`)}</span>
              {own && m.role === 'member' && (
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={t('lists:people.removeNamed', { email: m.email })}
                  disabled={disabled}
                  aria-describedby={online ? undefined : offlineReason}
                  onClick={() => void act(`remove-${m.user_id}`, () => removeMember(list.id, m.user_id), t('lists:people.removed', { email: m.email }))}
                >
                  {t('lists:people.remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {own && (invites.data ?? []).length > 0 && (
        <>
          <h4>{t('lists:people.pending')}</h4>
          <ul className="list-people-members">
            {(invites.data ?? []).map((i) => (
              <li key={i.id}>
                <span className="list-people-email">{i.email}</span>
                <span className="badge muted">{t('lists:people.invitedBadge')}</span>
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={t('lists:people.cancelNamed', { email: i.email })}
                  disabled={disabled}
                  aria-describedby={online ? undefined : offlineReason}
                  onClick={() => void act(`cancel-${i.id}`, () => cancelInvite(list.id, i.id), t('lists:people.cancelled', { email: i.email }))}
                >
                  {t('lists:people.cancel')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {own ? (
        <form className="list-people-invite" onSubmit={(e) => void invite(e)} noValidate>
          <label htmlFor={`${ids}-email`}>{t('lists:people.inviteLabel')}</label>
          <div className="row">
            <input
              id={`${ids}-email`}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-describedby={`${ids}-hint`}
              disabled={!online}
            />
            <button type="submit" className="button small primary" disabled={disabled || email.trim() === ''} aria-describedby={online ? undefined : offlineReason}>
              {busy === 'invite' ? t('lists:people.inviting') : t('lists:people.invite')}
            </button>
          </div>
          <p className="hint" id={`${ids}-hint`}>
            {t('lists:people.inviteHint')}
          </p>
        </form>
      ) : (
        <button type="button" className="button small secondary" disabled={disabled} aria-describedby={online ? undefined : offlineReason} onClick={() => void leave()}>
          {t('lists:people.leave')}
        </button>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
