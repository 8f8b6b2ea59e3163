/**
 * The guide's progress (which first steps are done), kept on this device. The places where a
 * step happens mark it (enabling notifications, sending a test, creating a reminder), so the
 * guide advances wherever the person does them, not only inside its tour.
 */
import { useSyncExternalStore } from 'react';

export const GUIDE_STEPS = ['install', 'signIn', 'enable', 'test', 'create'] as const;
export type GuideStep = (typeof GUIDE_STEPS)[number];

const PROGRESS_KEY = 'hibiki.guideProgress';
const listeners = new Set<() => void>();
let cache: readonly GuideStep[] | null = null;

function read(): readonly GuideStep[] {
  try {
    const v = JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? GUIDE_STEPS.filter((s) => v.includes(s)) : [];
  } catch {
    return [];
  }
}

export function guideProgress(): readonly GuideStep[] {
  cache ??= read();
  return cache;
}

function write(done: readonly GuideStep[]): void {
  cache = GUIDE_STEPS.filter((s) => done.includes(s));
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(cache));
  } catch {
    /* storage unavailable: the progress lasts for this visit */
  }
  for (const l of listeners) l();
}

export function markGuideStep(step: GuideStep): void {
  const done = guideProgress();
  if (!done.includes(step)) write([...done, step]);
}

/** The guide's checkboxes: ticked or unticked by hand. */
export function toggleGuideStep(step: GuideStep): void {
  const done = guideProgress();
  write(done.includes(step) ? done.filter((s) => s !== step) : [...done, step]);
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  // Another tab's progress.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== PROGRESS_KEY) return;
    cache = null;
    fn();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('storage', onStorage);
  };
}

export function useGuideProgress(): readonly GuideStep[] {
  return useSyncExternalStore(subscribe, guideProgress, guideProgress);
}

/** Test helper. */
export function resetGuideProgressForTests(): void {
  cache = null;
}
