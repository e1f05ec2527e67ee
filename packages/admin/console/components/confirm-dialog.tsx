import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A question asked before something that cannot be undone: a modal dialog (the page behind it inert, Escape
 * answers no), its "no" focused first so that Enter never does the harm by accident.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm(): void;
  onCancel(): void;
  children: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const shown = dialog.current;
    if (shown === null) return;
    if (!shown.open) shown.showModal();
    keep.current?.focus();
    return () => shown.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      aria-labelledby="confirm-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id="confirm-dialog-title">{title}</h2>
      {children}
      <div class="actions">
        <button type="button" ref={keep} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
