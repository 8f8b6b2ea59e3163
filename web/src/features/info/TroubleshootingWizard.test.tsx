/**
 * The wizard as a person uses it: answer buttons lead question by question to a fix with its
 * steps; back and start over; the focus follows to each new step's heading (keyboard users
 * carry on from there); both languages; the controls and device hints passed in show with
 * their step.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { TroubleshootingWizard } from './TroubleshootingWizard';

async function inLang(lang: 'ja' | 'en', ui: React.ReactNode) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('info');
  return render(<Suspense fallback={null}>{ui}</Suspense>);
}

const answer = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

describe('TroubleshootingWizard', () => {
  it('en: each answer leads to the next question, then to the fix with its steps; the focus follows', async () => {
    await inLang('en', <TroubleshootingWizard />);
    expect(await screen.findByRole('heading', { name: 'What is the problem?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    answer('Reminders do not ring');
    const q2 = screen.getByRole('heading', { name: 'Are you using an iPhone or iPad?' });
    expect(q2).toHaveFocus();
    answer('No');
    expect(screen.getByRole('heading', { name: 'Does the browser allow notifications for this site?' })).toHaveFocus();
    answer('Blocked');
    const fix = screen.getByRole('heading', { name: 'Unblock notifications for this site' });
    expect(fix).toHaveFocus();
    expect(screen.getByText('What to do')).toBeInTheDocument();
    const steps = within(fix.closest('section')!).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      'Open the site settings from the icon at the left of the address bar (iPhone: Settings → Notifications → Hibiki).',
      'Set Notifications to Allow.',
      'Reload the page and press “Enable notifications”.',
    ]);
    // the answers so far are listed
    const trail = screen.getByRole('region', { name: 'Your answers' });
    expect(within(trail).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'What is the problem? Reminders do not ring',
      'Are you using an iPhone or iPad? No',
      'Does the browser allow notifications for this site? Blocked',
    ]);
  });

  it('back returns to the last question, start over to the first', async () => {
    await inLang('en', <TroubleshootingWizard />);
    await screen.findByRole('heading', { name: 'What is the problem?' });
    answer('Notifications arrive late');
    answer('Yes');
    expect(screen.getByRole('heading', { name: 'Keep the phone from holding notifications back' })).toBeInTheDocument();
    answer('Back');
    expect(screen.getByRole('heading', { name: 'Do reminders arrive on time while Hibiki is open on the screen?' })).toHaveFocus();
    answer('No');
    expect(screen.getByRole('heading', { name: 'Check the time and the time zone' })).toBeInTheDocument();
    answer('Start over');
    expect(screen.getByRole('heading', { name: 'What is the problem?' })).toHaveFocus();
    expect(screen.queryByRole('region', { name: 'Your answers' })).toBeNull();
  });

  it('ja: the same path in Japanese, with the device hint and the control for the step', async () => {
    await inLang(
      'ja',
      <TroubleshootingWizard hints={{ permission: 'この端末の状態：ブロック中' }} actions={{ enable: <button type="button">通知を有効にする</button> }} />,
    );
    await screen.findByRole('heading', { name: 'どんな問題がありますか？' });
    answer('リマインダーが鳴らない');
    answer('いいえ');
    expect(screen.getByRole('heading', { name: 'このサイトの通知は、ブラウザで許可されていますか？' })).toHaveFocus();
    expect(screen.getByText('この端末の状態：ブロック中')).toBeInTheDocument();
    answer('まだ聞かれていない');
    expect(screen.getByRole('heading', { name: '通知を有効にする' })).toHaveFocus();
    expect(screen.getByRole('button', { name: '通知を有効にする' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '最初からやり直す' })).toBeEnabled();
  });

  it('the first render does not take the focus (the page keeps it)', async () => {
    await inLang('en', <TroubleshootingWizard />);
    expect(await screen.findByRole('heading', { name: 'What is the problem?' })).not.toHaveFocus();
  });
});
