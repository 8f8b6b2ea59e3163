import { describe, expect, it } from 'vitest';
import {
  applyOtpInput,
  canResend,
  canSubmit,
  formatCountdown,
  isExpired,
  remainingSeconds,
  resendCooldownSeconds,
  resendOtp,
  sanitizeOtp,
  startOtp,
} from './otpLogic';

const T0 = 1_700_000_000_000;
const s = (sec: number) => T0 + sec * 1000;

describe('sanitizeOtp', () => {
  it('keeps digits only, at most 6', () => {
    expect(sanitizeOtp('12a3 4-5')).toBe('12345');
    expect(sanitizeOtp('1234567890')).toBe('123456');
    expect(sanitizeOtp('abc')).toBe('');
    expect(sanitizeOtp('１２３４５６')).toBe('123456');
  });
});

describe('applyOtpInput', () => {
  it('typing one digit at a time never auto-submits', () => {
    let st = startOtp(T0);
    for (const d of '12345') {
      const r = applyOtpInput(st, st.digits + d, T0);
      expect(r.autoSubmit).toBe(false);
      st = r.state;
    }
    const last = applyOtpInput(st, st.digits + '6', T0);
    expect(last.state.digits).toBe('123456');
    expect(last.autoSubmit).toBe(false);
    expect(canSubmit(last.state, T0)).toBe(true);
  });
  it('paste takes the first 6 digits and a full 6 auto-submits', () => {
    const r = applyOtpInput(startOtp(T0), 'Your code: 987 654 321', s(5));
    expect(r.state.digits).toBe('987654');
    expect(r.autoSubmit).toBe(true);
  });
  it('a paste with fewer than 6 digits does not submit', () => {
    const r = applyOtpInput(startOtp(T0), '12 34', s(1));
    expect(r.state.digits).toBe('1234');
    expect(r.autoSubmit).toBe(false);
  });
  it('autofill flagged explicitly submits', () => {
    const st = { ...startOtp(T0), digits: '12345' };
    expect(applyOtpInput(st, '123456', T0, true).autoSubmit).toBe(true);
  });
  it('does not auto-submit an expired code', () => {
    const r = applyOtpInput(startOtp(T0), '123456', s(1200));
    expect(r.autoSubmit).toBe(false);
  });
});

describe('countdown', () => {
  it('starts at 1200 s and reaches 0 (expired)', () => {
    const st = startOtp(T0);
    expect(remainingSeconds(st, T0)).toBe(1200);
    expect(remainingSeconds(st, s(1199.5))).toBe(1);
    expect(isExpired(st, s(1199))).toBe(false);
    expect(isExpired(st, s(1200))).toBe(true);
    expect(remainingSeconds(st, s(5000))).toBe(0);
  });
  it('submit needs 6 digits and no expiry', () => {
    const st = { ...startOtp(T0), digits: '123456' };
    expect(canSubmit(st, s(10))).toBe(true);
    expect(canSubmit(st, s(1200))).toBe(false);
    expect(canSubmit({ ...st, digits: '12345' }, s(10))).toBe(false);
  });
  it('resend is enabled after 60 s', () => {
    const st = startOtp(T0);
    expect(canResend(st, s(59))).toBe(false);
    expect(resendCooldownSeconds(st, s(59))).toBe(1);
    expect(canResend(st, s(60))).toBe(true);
    expect(resendCooldownSeconds(st, s(61))).toBe(0);
  });
  it('resend resets the countdown and clears the digits', () => {
    const st = { ...startOtp(T0), digits: '123' };
    const r = resendOtp(st, s(300));
    expect(r.digits).toBe('');
    expect(remainingSeconds(r, s(300))).toBe(1200);
    expect(canResend(r, s(330))).toBe(false);
  });
  it('uses server-provided durations', () => {
    const st = startOtp(T0, 600, 30);
    expect(remainingSeconds(st, T0)).toBe(600);
    expect(canResend(st, s(30))).toBe(true);
  });
  it('formats mm:ss', () => {
    expect(formatCountdown(1200)).toBe('20:00');
    expect(formatCountdown(61)).toBe('1:01');
    expect(formatCountdown(0)).toBe('0:00');
  });
});
