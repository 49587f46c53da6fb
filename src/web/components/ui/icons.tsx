import type { ReactNode } from 'react';

/** A line icon (24-unit grid, drawn in the text colour); decorative: its control carries the name. */
export function Icon({ children, size = 28, stroke = 1.8 }: { children: ReactNode; size?: number; stroke?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={stroke}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** The reply box's Send. */
export const SendIcon = () => (
  <Icon size={20} stroke={2}>
    <path d="M4 12 20 4l-6 16-3-7-7-1Z" />
  </Icon>
);
/** Attach files (a paperclip). */
export const PaperclipIcon = () => (
  <Icon size={20} stroke={2}>
    <path d="m21 11-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6L15 6.6" />
  </Icon>
);
/** A document (a PDF download). */
export const DocumentIcon = () => (
  <Icon size={18} stroke={2}>
    <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8Z" />
    <path d="M14 3v5h5" />
  </Icon>
);
