/**
 * What every successful sign-in (code, link or the developer shortcut) does: check the answer,
 * remember the user, re-check the session, greet, and give a brand-new account this device's
 * time zone (the server starts new accounts on UTC; without this a Tokyo user's first reminder
 * would default to UTC wall-clock time).
 */
import { toast } from '../../components/toast';
import { api, ApiError } from '../../lib/api';
import { checkSession, signedIn } from '../../lib/authStore';
import type { User, VerifyAnswer } from '../../lib/types';

/** How the person signed in: the 6-digit code (POST /api/auth/verify), the link, or dev-login. */
export type SignInVia = 'code' | 'link' | 'dev';

/**
 * The answer's user. An answer without a user object (or one without an id) never signs anyone
 * in: it fails with the spec's 'Invalid OTP verification response' (code, INVALID_OTP_RESPONSE)
 * or 'Invalid authentication response' (link and dev-login, INVALID_AUTH_RESPONSE).
 */
export function verifiedUser(res: VerifyAnswer | null | undefined, via: SignInVia): User {
  const user: unknown = res && typeof res === 'object' ? res.user : undefined;
  if (user && typeof user === 'object' && typeof (user as Partial<User>).id === 'string') return user as User;
  throw via === 'code'
    ? new ApiError('Invalid OTP verification response', { status: 0, code: 'INVALID_OTP_RESPONSE', data: res })
    : new ApiError('Invalid authentication response', { status: 0, code: 'INVALID_AUTH_RESPONSE', data: res });
}

/** Throws (before anything changes) when the answer has no user; see verifiedUser. */
export function afterSignIn(res: VerifyAnswer | null | undefined, via: SignInVia, texts: { welcomeNew: string; signedIn: string }): void {
  const user = verifiedUser(res, via);
  signedIn(user);
  void checkSession();
  // Shown just before the navigation to the signed-in page, which it survives.
  toast.success(res?.is_new_user ? texts.welcomeNew : texts.signedIn, { survivesNavigation: true });
  if (res?.is_new_user) {
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
