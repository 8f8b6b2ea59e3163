/**
 * A ring held for the reader's quiet hours (`held_until`): its history entry says until when, in
 * the history's own time format, and, while it still waits, "held" rather than "sending"; other
 * entries say nothing of it. A ring still held has not rung (the card's last delivery).
 */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../../i18n';
import { formatWhen } from '../../../lib/format';
import type { Lang } from '../../../lib/lang';
import type { DeliveryLog } from '../../../lib/types';
import { tr } from '../../../test/texts';
import { DeliveryHistory } from './DeliveryHistory';
import { lastDelivery } from './lastDelivery';

function log(id: string, at: string, extra: Partial<DeliveryLog> = {}): DeliveryLog {
  return { id, occurrence_at: at, kind: 'occurrence', status: 'shown', late: false, devices: [], held_until: null, ...extra } as DeliveryLog;
}

describe('DeliveryHistory: held for quiet hours', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: "held until" with the time it was delivered, on the held entry only`, async () => {
      const i18n = initI18n(lang);
      await i18n.changeLanguage(lang);
      await i18n.loadNamespaces('reminders');
      const now = Date.parse('2030-01-02T03:00:00Z');
      const when = (iso: string) => formatWhen(iso, { lang: lang as Lang, zone: 'Asia/Tokyo', userZone: 'Asia/Tokyo', now });
      // 23:10 Tokyo, held until 07:00 the next morning
      const held = log('l1', '2030-01-01T14:10:00Z', { held_until: '2030-01-01T22:00:00Z', shown_at: '2030-01-01T22:00:02Z' });
      const plain = log('l2', '2030-01-02T00:00:00Z');
      render(<DeliveryHistory id="r1" loading={false} failed={false} logs={[held, plain]} when={when} />);
      const items = await screen.findAllByRole('listitem');
      const text = tr(lang, 'reminders:details.heldUntil', { when: when(held.held_until!) });
      expect(when(held.held_until!)).toMatch(/7:00/);
      // newest first: the plain one, then the held one
      expect(within(items[1]!).getByText(text, { exact: false })).toBeVisible();
      expect(items[1]).toHaveTextContent(tr(lang, 'reminders:details.shownAt', { when: when(held.shown_at!) }));
      const heldWords = tr(lang, 'reminders:details.heldUntil', { when: '@' }).split('@')[0]!.trim();
      expect(items[0]).not.toHaveTextContent(heldWords);
    });
  }

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: one still waiting for quiet hours to end reads "held", not "sending"`, async () => {
      const i18n = initI18n(lang);
      await i18n.changeLanguage(lang);
      await i18n.loadNamespaces('reminders');
      const when = (iso: string) => formatWhen(iso, { lang, zone: 'Asia/Tokyo', userZone: 'Asia/Tokyo', now: Date.parse('2030-01-01T15:00:00Z') });
      const waiting = log('l1', '2030-01-01T14:10:00Z', { status: 'queued', held_until: '2030-01-01T22:00:00Z' });
      render(<DeliveryHistory id="r1" loading={false} failed={false} logs={[waiting]} when={when} />);
      const item = await screen.findByRole('listitem');
      expect(within(item).getByText(tr(lang, 'reminders:details.state.held'))).toBeVisible();
      expect(within(item).queryByText(tr(lang, 'reminders:details.state.queued'))).toBeNull();
      expect(item).toHaveTextContent(tr(lang, 'reminders:details.heldUntil', { when: when(waiting.held_until!) }));
    });
  }

  it('a held ring has not rung yet: the last delivery is the one before it', () => {
    const before = log('l0', '2030-01-01T00:00:00Z', { status: 'shown' });
    expect(lastDelivery([before, log('l1', '2030-01-01T14:10:00Z', { status: 'held', held_until: '2030-01-01T22:00:00Z' })])).toBe('shown');
    expect(lastDelivery([before, log('l1', '2030-01-01T14:10:00Z', { status: 'queued', held_until: '2030-01-01T22:00:00Z' })])).toBe('shown');
  });
});
