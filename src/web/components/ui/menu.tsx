import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A menu of more actions behind one button: a native `<details>`, so it opens and closes with the
 * keyboard (Enter or Space on its button) and without JavaScript. With the script, Escape closes it
 * (focus back on its button), and so does a click outside it or a form sent from it. Its items are
 * the caller's forms and buttons, each a real `<form method="post">`.
 */
export function Menu({ label, children }: { label: string; children: ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = menu.current;
    if (!details) return;
    const close = (focusButton: boolean) => {
      if (!details.open) return;
      details.open = false;
      if (focusButton) details.querySelector('summary')?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && details.open) {
        event.preventDefault();
        close(true);
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!details.contains(event.target as Node)) close(false);
    };
    const onSubmit = () => close(false);
    details.addEventListener('keydown', onKey);
    details.addEventListener('submit', onSubmit);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      details.removeEventListener('keydown', onKey);
      details.removeEventListener('submit', onSubmit);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);
  return (
    <details ref={menu} className="menu">
      <summary className="button button--ghost menu__button">
        {label}
        <span className="menu__arrow" aria-hidden="true">
          ▾
        </span>
      </summary>
      <div className="menu__panel">{children}</div>
    </details>
  );
}
