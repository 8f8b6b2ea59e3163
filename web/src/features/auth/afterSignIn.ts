/**
 * What every successful sign-in (code or link) does: remember the user, re-check the session,
 * greet, and give a brand-new account this device's time zone (the server starts new accounts on
 * UTC; without this a Tokyo user's first reminder would default to UTC wall-clock time).
 */
import { toast } from '../../components/toast';
import { api } from '../../lib/api';
import { checkSession, signedIn } from '../../lib/authStore';
import type { VerifyAnswer } from '../../lib/types';

export function afterSignIn(res: VerifyAnswer, texts: { welcomeNew: string; signedIn: string }): void {
  signedIn(res.user);
  void checkSession();
  // Shown just before the navigation to the signed-in page, which it survives.
  toast.success(res.is_new_user ? texts.welcomeNew : texts.signedIn, { survivesNavigation: true });
  if (res.is_new_user) {
    // Canonical (Asia/Kolkata, not the Asia/Calcutta some browsers report); the table of old
    // names loads here rather than with the first page.
    void import('../../lib/zoneIds')
      .then(({ deviceZone }) => {
        const timezone = deviceZone();
        return timezone && timezone !== 'UTC' ? api.settings.update({ timezone }) : undefined;
      })
      .catch(() => {});
  }
}
