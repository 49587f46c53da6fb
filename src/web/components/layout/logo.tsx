/** The Bagspace mark: a travel bag with a route line. Drawn in SVG, no image request. */
export function LogoMark({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false" className="logo-mark">
      <rect width="40" height="40" rx="10" fill="#0b3a5b" />
      <path
        d="M15 13.5V10.8A2.8 2.8 0 0 1 17.8 8h4.4a2.8 2.8 0 0 1 2.8 2.8v2.7"
        fill="none"
        stroke="#f6b83f"
        strokeWidth="2.4"
      />
      <rect x="8.5" y="13.5" width="23" height="18.5" rx="3.5" fill="#f6b83f" />
      <path d="M8.5 21h23" stroke="#0b3a5b" strokeWidth="1.8" />
      <circle cx="20" cy="21" r="2.4" fill="#0b3a5b" />
    </svg>
  );
}
