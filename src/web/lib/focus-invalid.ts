/**
 * After an invalid submit, focus goes to the first field in error (the one that says
 * aria-invalid="true"), once the form has re-rendered with its messages; the message is read with it.
 */
export function focusFirstInvalid(form: HTMLFormElement | null | undefined): void {
  if (!form) return;
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
