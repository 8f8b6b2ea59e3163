import { describe, expect, it } from 'vitest';
import { notificationAction } from './useNotificationAction';

describe('the action a declarative notification button asks for', () => {
  it('reads reminder, log and action from the address', () => {
    expect(notificationAction('?reminder=r1&log=l1&do=complete')).toEqual({ reminderId: 'r1', logId: 'l1', action: 'complete' });
    expect(notificationAction('?reminder=r1&log=l1&do=snooze')).toEqual({ reminderId: 'r1', logId: 'l1', action: 'snooze' });
  });
  it('ignores anything else', () => {
    expect(notificationAction('?reminder=r1')).toBeNull();
    expect(notificationAction('?reminder=r1&log=l1&do=delete')).toBeNull();
    expect(notificationAction('?reminder=r1&do=complete')).toBeNull();
    expect(notificationAction('')).toBeNull();
  });
});
