/**
 * Each entry says what rang it: a trigger link's ring and an escalation read as such (the kinds
 * the server adds beside the scheduled ones), in both languages.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../../i18n';
import type { DeliveryLog } from '../../../lib/types';
import { tr } from '../../../test/texts';
import { DeliveryHistory } from './DeliveryHistory';

function log(id: string, kind: string): DeliveryLog {
  return { id, occurrence_at: '2030-01-01T00:00:00Z', kind, status: 'shown', late: false, devices: [], held_until: null } as DeliveryLog;
}

describe('DeliveryHistory: kinds', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a trigger link's ring and an escalation are named`, async () => {
      const i18n = initI18n(lang);
      await i18n.changeLanguage(lang);
      await i18n.loadNamespaces('reminders');
      render(<DeliveryHistory id="r1" loading={false} failed={false} logs={[log('l1', 'trigger'), log('l2', 'escalation')]} when={(iso) => iso} />);
      const items = await screen.findAllByRole('listitem');
      expect(items[0]).toHaveTextContent(tr(lang, 'reminders:details.kind.trigger'));
      expect(items[1]).toHaveTextContent(tr(lang, 'reminders:details.kind.escalation'));
    });
  }
});
