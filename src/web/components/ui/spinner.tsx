import '../../styles/feedback.css';

/**
 * A blocking spinner: covers the page while something the user must wait for is running, and
 * tells screen readers what it is waiting for.
 */
export function Spinner({ label }: { label: string }) {
  return (
    <div className="spinner-overlay" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="spinner-overlay__label">{label}</span>
    </div>
  );
}

/** The same wheel, inline (e.g. while a page confirms a link). */
export function InlineSpinner({ label }: { label: string }) {
  return (
    <p className="spinner-inline" role="status">
      <span className="spinner spinner--small" aria-hidden="true" />
      <span>{label}</span>
    </p>
  );
}
