import { useEffect } from 'react';
import { useLocation } from '../lib/router';
import { useAuth } from '../lib/authStore';

/** Sets the tab's title for the page shown, in its language ("リマインダー | Hibiki"). */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  const signedIn = useAuth().user !== null;
  useEffect(() => {
    let current = true;
    void import('./routeTitles')
      .then((m) => m.documentTitleFor(pathname, signedIn))
      .then((title) => {
        if (current) document.title = title;
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [pathname, signedIn]);
}
