/**
 * OTP step state (product spec sections 4, 5, 9): 6 digits only; paste/autofill takes the first
 * 6 digits and a full 6 submits automatically; the expiry countdown starts at 1200 s; resend is
 * enabled after 60 s; at 0 an expired notice shows; resend resets the countdown and clears the
 * digits. Time is passed in (epoch ms) so everything here is pure.
 */
export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 1200;
export const OTP_RESEND_AFTER_SECONDS = 60;

export interface OtpState {
  digits: string;
  /** epoch ms when the current code was sent */
  sentAt: number;
  ttlSeconds: number;
  resendAfterSeconds: number;
  /** code sign-in is paused for the address (too many wrong codes): the email has only the link */
  codePaused?: boolean;
}

export function startOtp(
  now: number,
  ttlSeconds = OTP_TTL_SECONDS,
  resendAfterSeconds = OTP_RESEND_AFTER_SECONDS,
): OtpState {
  return { digits: '', sentAt: now, ttlSeconds, resendAfterSeconds };
}

/** Digits only, at most 6. */
export function sanitizeOtp(raw: string): string {
  // Full-width digits (０-９) typed with a Japanese IME count as digits too.
  const normalized = raw.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  return normalized.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

export interface OtpInputResult {
  state: OtpState;
  /** true when a paste/autofill (several characters at once) completed all 6 digits */
  autoSubmit: boolean;
}

/**
 * Apply a new raw input value. `bulk` marks a paste or autofill (or any change that inserted
 * more than one character at once); when it yields all 6 digits the form submits itself.
 */
export function applyOtpInput(state: OtpState, raw: string, now: number, bulk?: boolean): OtpInputResult {
  const digits = sanitizeOtp(raw);
  const inserted = raw.length - state.digits.length;
  const isBulk = bulk ?? inserted > 1;
  const next = { ...state, digits };
  return {
    state: next,
    autoSubmit: isBulk && digits.length === OTP_LENGTH && !isExpired(next, now),
  };
}

export function elapsedSeconds(state: OtpState, now: number): number {
  return Math.max(0, Math.floor((now - state.sentAt) / 1000));
}

export function remainingSeconds(state: OtpState, now: number): number {
  return Math.max(0, state.ttlSeconds - elapsedSeconds(state, now));
}

export function isExpired(state: OtpState, now: number): boolean {
  return remainingSeconds(state, now) === 0;
}

export function canResend(state: OtpState, now: number): boolean {
  return elapsedSeconds(state, now) >= state.resendAfterSeconds;
}

export function resendCooldownSeconds(state: OtpState, now: number): number {
  return Math.max(0, state.resendAfterSeconds - elapsedSeconds(state, now));
}

export function canSubmit(state: OtpState, now: number): boolean {
  return state.digits.length === OTP_LENGTH && !isExpired(state, now);
}

/** After a successful resend: countdown restarts, digits cleared. */
export function resendOtp(state: OtpState, now: number, ttlSeconds?: number, resendAfterSeconds?: number): OtpState {
  return startOtp(now, ttlSeconds ?? state.ttlSeconds, resendAfterSeconds ?? state.resendAfterSeconds);
}

/** 1200 -> "20:00", 59 -> "0:59" */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
