import { describe, expect, it } from 'vitest';
import { notificationAction } from './useNotificationAction';

describe('the action a declarative notification button asks for', () => {
  it('reads reminder, log, action and the action token from the address', () => {
    expect(notificationAction('?reminder=r1&log=l1&do=complete&t=tok')).toEqual({ reminderId: 'r1', logId: 'l1', action: 'complete', token: 'tok' });
    expect(notificationAction('?reminder=r1&log=l1&do=snooze&t=tok')).toEqual({ reminderId: 'r1', logId: 'l1', action: 'snooze', token: 'tok' });
  });
  it('without `t` (or an empty one) there is no token: the page asks before acting', () => {
    expect(notificationAction('?reminder=r1&log=l1&do=complete')).toEqual({ reminderId: 'r1', logId: 'l1', action: 'complete', token: null });
    expect(notificationAction('?reminder=r1&log=l1&do=snooze&t=')).toEqual({ reminderId: 'r1', logId: 'l1', action: 'snooze', token: null });
  });
  it('ignores anything else', () => {
    expect(notificationAction('?reminder=r1')).toBeNull();
    expect(notificationAction('?reminder=r1&log=l1&do=delete&t=tok')).toBeNull();
    expect(notificationAction('?reminder=r1&do=complete')).toBeNull();
    expect(notificationAction('')).toBeNull();
  });
});
