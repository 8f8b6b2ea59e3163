import { useCallback } from 'react';
import { useLocation } from './router';
import { langFromPath, pathForLang, type Lang } from './lang';

/** The language the current path decides. */
export function useLang(): Lang {
  return langFromPath(useLocation().pathname);
}

/** Maps an unprefixed app path ('/reminders') to the current language's path. */
export function useLocalizedPath(): (path: string) => string {
  const lang = useLang();
  return useCallback((path: string) => pathForLang(path, lang), [lang]);
}
