import { Link, NavLink, type LinkProps, type NavLinkProps } from '../lib/router';
import { useLocalizedPath } from '../lib/useLang';

/** A Link whose `to` is an unprefixed path; it is localized for the current language. */
export function LangLink({ to, ...rest }: Omit<LinkProps, 'to'> & { to: string }) {
  const lp = useLocalizedPath();
  return <Link to={lp(to)} {...rest} />;
}

export function LangNavLink({ to, ...rest }: Omit<NavLinkProps, 'to'> & { to: string }) {
  const lp = useLocalizedPath();
  return <NavLink to={lp(to)} end {...rest} />;
}
