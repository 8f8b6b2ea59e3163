import { EMPTY_INSTALL_STATE, type InstallPromptState, type IosGuideState } from './installRules';

export const INSTALL_STATE_KEY = 'hibiki.install';
export const IOS_GUIDE_KEY = 'hibiki.iosGuide';

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? { ...fallback, ...(JSON.parse(raw) as T) } : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage unavailable */
  }
}

export const loadInstallState = () => read<InstallPromptState>(INSTALL_STATE_KEY, EMPTY_INSTALL_STATE);
export const saveInstallState = (s: InstallPromptState) => write(INSTALL_STATE_KEY, s);
export const loadIosGuideState = () => read<IosGuideState>(IOS_GUIDE_KEY, { snoozedUntil: null });
export const saveIosGuideState = (s: IosGuideState) => write(IOS_GUIDE_KEY, s);
