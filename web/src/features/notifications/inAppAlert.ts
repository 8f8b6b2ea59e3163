/**
 * With the app open, a push also sounds in the page (decisions.md "Notifications"): the service
 * worker posts PUSH_RECEIVED {payload} to every window; a visible one plays a short chime and, when
 * the user enabled `speak_titles`, speaks the title in the payload's language. Loaded after the
 * first paint (startup.ts).
 */
import { toast } from '../../components/toast';
import { api } from '../../lib/api';

export const PUSH_RECEIVED = 'PUSH_RECEIVED';

export interface PushMessagePayload {
  type?: string;
  title?: string;
  body?: string;
  lang?: string;
  reminder_id?: string;
}

export interface AlertPlan {
  chime: boolean;
  /** the text to speak, or null */
  speak: string | null;
  /** BCP 47 tag for the voice */
  voiceLang: 'ja-JP' | 'en-US';
  /** the in-app toast */
  toast: string | null;
}

/** What to do for a message from the service worker (pure; tested). */
export function planAlert(
  message: unknown,
  opts: { visible: boolean; speakTitles: boolean; signedIn: boolean },
): AlertPlan | null {
  if (!message || typeof message !== 'object') return null;
  const m = message as { type?: unknown; payload?: unknown };
  if (m.type !== PUSH_RECEIVED || !m.payload || typeof m.payload !== 'object') return null;
  if (!opts.visible) return null; // the system notification speaks for itself
  const p = m.payload as PushMessagePayload;
  const title = typeof p.title === 'string' ? p.title.trim() : '';
  const voiceLang = p.lang === 'en' ? 'en-US' : 'ja-JP';
  // Someone else completed a shared reminder: said quietly, no chime, no voice.
  if (p.type === 'done') return { chime: false, speak: null, voiceLang, toast: [title, typeof p.body === 'string' ? p.body.trim() : ''].filter(Boolean).join(' — ') || null };
  return {
    chime: true,
    speak: opts.signedIn && opts.speakTitles && title ? title : null,
    voiceLang,
    toast: title || null,
  };
}

let audio: AudioContext | null = null;

/** A two-note chime made with WebAudio (no media file, so nothing for the CSP to block). */
export function playChime(): boolean {
  const Ctx = globalThis.AudioContext ?? (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return false;
  try {
    audio ??= new Ctx();
    if (audio.state === 'suspended') void audio.resume().catch(() => {});
    const start = audio.currentTime + 0.02;
    [880, 1318.5].forEach((freq, i) => {
      const osc = audio!.createOscillator();
      const gain = audio!.createGain();
      const t0 = start + i * 0.18;
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.6);
      osc.connect(gain).connect(audio!.destination);
      osc.start(t0);
      osc.stop(t0 + 0.65);
    });
    return true;
  } catch {
    return false;
  }
}

export function speak(text: string, lang: string): boolean {
  const synth = globalThis.speechSynthesis;
  if (!synth || typeof SpeechSynthesisUtterance === 'undefined') return false;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = lang;
  const voice = synth.getVoices().find((v) => v.lang.replace('_', '-').toLowerCase().startsWith(lang.slice(0, 2).toLowerCase()));
  if (voice) u.voice = voice;
  synth.speak(u);
  return true;
}

/** Listens for PUSH_RECEIVED from the service worker. Returns the uninstaller. */
export function installInAppAlerts(isSignedIn: () => boolean): () => void {
  const sw = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
  if (!sw) return () => {};
  const onMessage = (e: MessageEvent) => {
    const data: unknown = e.data;
    if ((data as { type?: unknown } | null)?.type !== PUSH_RECEIVED) return;
    void (async () => {
      const signedIn = isSignedIn();
      let speakTitles = false;
      if (signedIn) speakTitles = await api.settings.get().then((s) => s.speak_titles === true, () => false);
      const plan = planAlert(data, { visible: document.visibilityState === 'visible', speakTitles, signedIn });
      if (!plan) return;
      if (plan.chime) playChime();
      if (plan.toast) toast.info(plan.toast);
      if (plan.speak) speak(plan.speak, plan.voiceLang);
    })();
  };
  sw.addEventListener('message', onMessage);
  return () => sw.removeEventListener('message', onMessage);
}
