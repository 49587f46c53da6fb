import { type ReactNode, useEffect, useId, useRef } from 'react';
import '../../styles/feedback.css';

/**
 * A modal message box (docs/product.md §2, §8): an icon, a message and a Close button. Built on the native
 * <dialog>, so focus moves into it and Escape closes it; Tab wraps inside it, and on closing focus
 * returns where it was (or where `returnFocus` says).
 * Reused by support for 'An error occured: {message}'.
 */
export function MessageBox({
  open,
  title,
  message,
  tone = 'error',
  onClose,
  returnFocus,
  children,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  tone?: 'error' | 'info' | 'success';
  onClose(): void;
  /** Where focus goes when the box closes; by default, where it was when the box opened. */
  returnFocus?: () => HTMLElement | null | undefined;
  /** Further actions, shown above the Close button. */
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();

  const opener = useRef<HTMLElement | null>(null);
  const returnTo = useRef(returnFocus);
  returnTo.current = returnFocus;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    }
    if (!open && dialog.open) {
      dialog.close();
      const target = returnTo.current?.() ?? opener.current;
      if (target?.isConnected && !target.matches(':disabled')) target.focus();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`message-box message-box--${tone}`}
      role={tone === 'error' ? 'alertdialog' : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        // Tab stays inside the box: past the last control it wraps to the first, and back.
        if (event.key !== 'Tab') return;
        const controls = [...event.currentTarget.querySelectorAll<HTMLElement>('a[href], button:not(:disabled)')];
        const first = controls[0];
        const last = controls.at(-1);
        if (!first || !last) return;
        if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        } else if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        }
      }}
    >
      {open ? (
        <div className="message-box__body">
          <span className="message-box__icon" data-testid={`message-box-icon-${tone}`} aria-hidden="true">
            <ToneIcon tone={tone} />
          </span>
          <div className="message-box__content">
            <h2 id={titleId} className="message-box__title">
              {title}
            </h2>
            <div id={messageId} className="message-box__message">
              {message}
            </div>
            {children ? <div className="message-box__extra">{children}</div> : null}
            <div className="message-box__actions">
              <button type="button" className="button button--primary" onClick={onClose} autoFocus>
                Close
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}

function ToneIcon({ tone }: { tone: 'error' | 'info' | 'success' }) {
  return (
    <svg
      width="28"
      height="28"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      focusable="false"
    >
      <circle cx="12" cy="12" r="10" />
      {tone === 'error' ? (
        <path d="M12 7v6M12 16.5v.5" />
      ) : tone === 'success' ? (
        <path d="m7.5 12.5 3 3 6-6.5" />
      ) : (
        <path d="M12 11v6M12 7.5v.5" />
      )}
    </svg>
  );
}
