export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="30" fill="var(--brand)" />
      <path d="M20 40c6-4 6-12 0-16M30 46c10-7 10-21 0-28M40 52c14-10 14-30 0-40" stroke="#fff" strokeWidth="4" fill="none" strokeLinecap="round" />
    </svg>
  );
}
