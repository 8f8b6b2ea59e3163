/**
 * PWA install prompt and iOS add-to-home-screen guide rules (product spec section 9).
 * Pure functions over a small persisted state so they can be unit tested; the components in
 * this folder read/write the state from localStorage.
 */
import { isIos } from '../../lib/platform';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export const INSTALL_MIN_VISITS = 3;
export const INSTALL_MIN_AGE_MS = 5 * MINUTE;
export const INSTALL_CLOSE_SNOOZE_MS = 3 * DAY;
export const INSTALL_LATER_SNOOZE_MS = 7 * DAY;
export const IOS_GUIDE_DELAY_MS = 3_000;
export const IOS_GUIDE_SNOOZE_MS = 7 * DAY;

export interface InstallPromptState {
  visits: number;
  /** epoch ms of the first recorded visit */
  firstVisitAt: number | null;
  /** epoch ms until which the prompt stays hidden */
  snoozedUntil: number | null;
}

export const EMPTY_INSTALL_STATE: InstallPromptState = { visits: 0, firstVisitAt: null, snoozedUntil: null };

/** Called once per app load. */
export function recordVisit(state: InstallPromptState, now: number): InstallPromptState {
  return { ...state, visits: state.visits + 1, firstVisitAt: state.firstVisitAt ?? now };
}

export function isSnoozed(snoozedUntil: number | null, now: number): boolean {
  return snoozedUntil !== null && now < snoozedUntil;
}

/** 3+ visits, at least 5 min after the first visit, not snoozed, and not already installed. */
export function shouldShowInstallPrompt(
  state: InstallPromptState,
  now: number,
  opts: { installed: boolean; promptAvailable: boolean },
): boolean {
  if (opts.installed || !opts.promptAvailable) return false;
  if (state.visits < INSTALL_MIN_VISITS) return false;
  if (state.firstVisitAt === null || now - state.firstVisitAt < INSTALL_MIN_AGE_MS) return false;
  return !isSnoozed(state.snoozedUntil, now);
}

export type InstallDismissal = 'close' | 'later' | 'declined';

/** Close snoozes 3 days; "later" or declining the browser's install dialog snoozes 7 days. */
export function dismissInstallPrompt(
  state: InstallPromptState,
  how: InstallDismissal,
  now: number,
): InstallPromptState {
  const ms = how === 'close' ? INSTALL_CLOSE_SNOOZE_MS : INSTALL_LATER_SNOOZE_MS;
  return { ...state, snoozedUntil: now + ms };
}

/** Milliseconds until the prompt may show (for a timer), or null when it never will this load. */
export function installPromptDelay(
  state: InstallPromptState,
  now: number,
): number | null {
  if (state.visits < INSTALL_MIN_VISITS || state.firstVisitAt === null) return null;
  const readyAt = Math.max(
    state.firstVisitAt + INSTALL_MIN_AGE_MS,
    isSnoozed(state.snoozedUntil, now) ? (state.snoozedUntil as number) : now,
  );
  return Math.max(0, readyAt - now);
}

// ---- iOS guide ----

export interface NavigatorFacts {
  userAgent: string;
  maxTouchPoints: number;
  /** navigator.standalone (iOS) or display-mode: standalone */
  standalone: boolean;
}

/** Safari proper: other iOS browsers (Chrome, Firefox, Edge, Opera, in-app views) are excluded. */
export function isIosSafari(n: Pick<NavigatorFacts, 'userAgent' | 'maxTouchPoints'>): boolean {
  if (!isIos(n)) return false;
  const ua = n.userAgent;
  if (/CriOS|FxiOS|EdgiOS|OPiOS|OPT\/|YaBrowser|DuckDuckGo|GSA\/|FBAN|FBAV|Instagram|Line\//.test(ua)) return false;
  return /Safari\//.test(ua) && /Version\//.test(ua);
}

export interface IosGuideState {
  snoozedUntil: number | null;
}

/**
 * The guide shows once per load (the caller keeps a flag), 3 s after load, only in iOS Safari
 * outside standalone mode, and not while a dismissal snooze (7 days) is active.
 */
export function shouldShowIosGuide(
  nav: NavigatorFacts,
  state: IosGuideState,
  now: number,
  alreadyShownThisLoad: boolean,
): boolean {
  if (alreadyShownThisLoad) return false;
  if (nav.standalone || !isIosSafari(nav)) return false;
  return !isSnoozed(state.snoozedUntil, now);
}

export function dismissIosGuide(now: number): IosGuideState {
  return { snoozedUntil: now + IOS_GUIDE_SNOOZE_MS };
}
