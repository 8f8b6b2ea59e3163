import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** The modules of a QR code of `text` (error correction M), as one SVG path with a quiet zone. */
export function qrPath(text: string): { size: number; d: string } {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let d = '';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  return { size: n + quiet * 2, d };
}

/** A printable QR code: black on white in either colour scheme (scanners want the contrast). */
export default function TriggerQr({ url, label }: { url: string; label: string }) {
  const { size, d } = useMemo(() => qrPath(url), [url]);
  return (
    <svg className="trigger-qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
