import { describe, expect, it } from 'vitest';
import { planAlert } from './inAppAlert';

const msg = (payload: unknown) => ({ type: 'PUSH_RECEIVED', payload });

describe('planAlert', () => {
  it('chimes, toasts and speaks the title in the payload language when enabled', () => {
    expect(planAlert(msg({ title: ' 薬を飲む ', lang: 'ja' }), { visible: true, speakTitles: true, signedIn: true })).toEqual({
      chime: true,
      speak: '薬を飲む',
      voiceLang: 'ja-JP',
      toast: '薬を飲む',
    });
    expect(planAlert(msg({ title: 'Stretch', lang: 'en' }), { visible: true, speakTitles: true, signedIn: true })?.voiceLang).toBe('en-US');
  });
  it('does not speak unless the setting is on and the user is signed in', () => {
    expect(planAlert(msg({ title: 'T', lang: 'en' }), { visible: true, speakTitles: false, signedIn: true })?.speak).toBeNull();
    expect(planAlert(msg({ title: 'T', lang: 'en' }), { visible: true, speakTitles: true, signedIn: false })?.speak).toBeNull();
    expect(planAlert(msg({ lang: 'en' }), { visible: true, speakTitles: true, signedIn: true })).toMatchObject({ chime: true, speak: null, toast: null });
  });
  it('stays quiet in a hidden tab and ignores other messages', () => {
    expect(planAlert(msg({ title: 'T' }), { visible: false, speakTitles: true, signedIn: true })).toBeNull();
    expect(planAlert({ type: 'NAVIGATE_FROM_NOTIFICATION', url: '/' }, { visible: true, speakTitles: true, signedIn: true })).toBeNull();
    expect(planAlert(null, { visible: true, speakTitles: true, signedIn: true })).toBeNull();
    expect(planAlert(msg(null), { visible: true, speakTitles: true, signedIn: true })).toBeNull();
  });
  it('a done push (someone else completed it) neither chimes nor speaks: it only says who did it', () => {
    expect(planAlert(msg({ type: 'done', title: '燃えるゴミ', body: 'hanako@example.com さんが完了しました。', lang: 'ja' }), { visible: true, speakTitles: true, signedIn: true })).toEqual({
      chime: false,
      speak: null,
      voiceLang: 'ja-JP',
      toast: '燃えるゴミ — hanako@example.com さんが完了しました。',
    });
  });
});
