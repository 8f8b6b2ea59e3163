import { useEffect } from 'react';

/** The app's name in every title; the same in both languages. */
export const APP_TITLE = 'Hibiki';

/** "<page> | Hibiki" ("リマインダー | Hibiki", "Reminders | Hibiki"). */
export function documentTitle(page: string): string {
  return `${page} | ${APP_TITLE}`;
}

/** Sets the tab's title for the page shown; `null` (texts still loading) leaves it as it is. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    if (page) document.title = documentTitle(page);
  }, [page]);
}
