/** A decorative scene: a route across Aotearoa with a bag travelling along it. Pure SVG. */
export function HeroIllustration() {
  return (
    <svg className="hero__art" viewBox="0 0 420 340" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#e6f2fb" />
          <stop offset="1" stopColor="#fdf3dc" />
        </linearGradient>
      </defs>
      <rect x="10" y="10" width="400" height="320" rx="28" fill="url(#sky)" />
      <path
        d="M70 270c40-8 62-40 92-58s66-12 90-40 24-66 70-84"
        fill="none"
        stroke="#0b3a5b"
        strokeWidth="3"
        strokeDasharray="2 10"
        strokeLinecap="round"
      />
      <g>
        <circle cx="70" cy="270" r="12" fill="#0b3a5b" />
        <circle cx="70" cy="270" r="5" fill="#fff" />
        <circle cx="322" cy="88" r="12" fill="#e4572e" />
        <circle cx="322" cy="88" r="5" fill="#fff" />
      </g>
      <g transform="translate(178 150)">
        <rect x="0" y="14" width="76" height="58" rx="10" fill="#f6b83f" />
        <path d="M24 14V7a6 6 0 0 1 6-6h16a6 6 0 0 1 6 6v7" fill="none" stroke="#0b3a5b" strokeWidth="4" />
        <path d="M0 38h76" stroke="#0b3a5b" strokeWidth="3" />
        <rect x="31" y="32" width="14" height="12" rx="3" fill="#0b3a5b" />
        <circle cx="16" cy="78" r="5" fill="#0b3a5b" />
        <circle cx="60" cy="78" r="5" fill="#0b3a5b" />
      </g>
      <g transform="translate(268 200)">
        <rect width="64" height="48" rx="6" fill="#c9822b" />
        <path d="M0 16h64M32 0v48" stroke="#8a5516" strokeWidth="3" />
      </g>
      <path
        d="M300 48c10-6 20-6 30 0M46 120c8-5 16-5 24 0"
        fill="none"
        stroke="#7aa6c8"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}
