import { useEffect, useRef, useState } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_LIMITS,
  ATTACHMENT_TEXT,
  ATTACHMENT_TYPES,
  detectAttachmentKind,
  formatBytes,
} from '../../../contracts/attachments.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import { PaperclipIcon } from '../../components/ui/icons.tsx';

export interface PickedFile {
  key: string;
  file: File;
  /** A local preview of a photo (an object URL), or null for a PDF. */
  preview: string | null;
}

let counter = 0;

/**
 * The files chosen for a message, checked as they are chosen with the server's own rules (the
 * first bytes decide the type; size; how many), so a refused file says why at once. The server
 * checks everything again.
 */
export function useAttachmentPicker(
  /** How many files it takes, and the words that refuse one more (a claim takes ten: contracts/claims.ts). */
  most: { files: number; refusal: string } = {
    files: ATTACHMENT_LIMITS.filesPerMessage,
    refusal: ATTACHMENT_TEXT.tooMany,
  },
) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // The files as the picker's own changes leave them, at once (a render comes later): the count
  // that refuses one file too many reads it.
  const current = useRef(files);
  const update = (next: PickedFile[]) => {
    current.current = next;
    setFiles(next);
  };
  // One add at a time, in the order they were asked for: a file is read (its first bytes) before
  // it is taken, so a large PDF chosen and then a photo dropped would otherwise land in the order
  // their reads ended, and two adds at once could together pass the most files a message takes.
  const adding = useRef<Promise<void>>(Promise.resolve());
  // Object URLs are released with the picker.
  useEffect(() => () => current.current.forEach((f) => f.preview && URL.revokeObjectURL(f.preview)), []);

  function add(list: Iterable<File>): Promise<void> {
    // Taken now: a drop's or a paste's file list is only readable during its event.
    const chosen = [...list];
    const done = adding.current.then(() => addNow(chosen));
    adding.current = done.catch(() => {});
    return done;
  }

  async function addNow(list: File[]) {
    const accepted: PickedFile[] = [];
    let problem: string | null = null;
    for (const file of list) {
      const name = file.name || 'image';
      if (current.current.length + accepted.length >= most.files) {
        problem = most.refusal;
        break;
      }
      if (file.size === 0) {
        problem = ATTACHMENT_TEXT.empty(name);
        continue;
      }
      if (file.size > ATTACHMENT_LIMITS.maxBytes) {
        problem = ATTACHMENT_TEXT.tooLarge(name);
        continue;
      }
      const kind = detectAttachmentKind(
        new Uint8Array(await file.slice(0, ATTACHMENT_LIMITS.sniffBytes).arrayBuffer()),
      );
      if (!kind) {
        problem = ATTACHMENT_TEXT.unsupported(name);
        continue;
      }
      counter += 1;
      accepted.push({
        key: `${counter}`,
        file,
        preview: ATTACHMENT_TYPES[kind].image ? URL.createObjectURL(file) : null,
      });
    }
    update([...current.current, ...accepted]);
    setError(problem);
  }

  function remove(key: string) {
    const gone = current.current.find((f) => f.key === key);
    if (gone?.preview) URL.revokeObjectURL(gone.preview);
    update(current.current.filter((f) => f.key !== key));
    setError(null);
  }

  function clear() {
    current.current.forEach((f) => f.preview && URL.revokeObjectURL(f.preview));
    update([]);
    setError(null);
    setProgress(null);
  }

  return { files, error, setError, progress, setProgress, add, remove, clear };
}
export type AttachmentPickerState = ReturnType<typeof useAttachmentPicker>;

/** Appends the chosen files to a form as `files` parts. */
export function appendFiles(form: FormData, picker: AttachmentPickerState) {
  for (const { file } of picker.files) form.append('files', file, file.name || 'image');
}

/**
 * Drag and drop onto an element: files dropped are added to the picker; `dragging` says when a
 * drag with files is over it (to show where to drop).
 */
export function useFileDrop(picker: AttachmentPickerState, enabled = true) {
  const [dragging, setDragging] = useState(false);
  const hasFiles = (event: React.DragEvent) => event.dataTransfer.types.includes('Files');
  return {
    dragging,
    handlers: enabled
      ? {
          onDragOver: (event: React.DragEvent) => {
            if (!hasFiles(event)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'copy';
            setDragging(true);
          },
          onDragLeave: (event: React.DragEvent) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
          },
          onDrop: (event: React.DragEvent) => {
            if (!hasFiles(event)) return;
            event.preventDefault();
            setDragging(false);
            void picker.add(event.dataTransfer.files);
          },
        }
      : {},
  };
}

/** Pasting a copied image (a screenshot) into a text box attaches it. */
export function pasteFiles(picker: AttachmentPickerState) {
  return (event: React.ClipboardEvent) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    void picker.add(files);
  };
}

/**
 * The 'Attach files' button (a real file input, so a form without JavaScript sends the files
 * itself), the chosen files with a preview and a remove button each, the upload's progress, and
 * why a file was refused.
 */
export function AttachmentPicker({
  picker,
  id,
  disabled = false,
  compact = false,
}: {
  picker: AttachmentPickerState;
  id: string;
  disabled?: boolean;
  /** The reply box's paperclip (its label is for screen readers) rather than a labelled button. */
  compact?: boolean;
}) {
  // Until the script runs, the browser's own file input shows what was chosen.
  const hydrated = useHydrated();
  // That input goes when the script takes over: what was chosen in it until then joins the picker,
  // checked like any other choice, so it is sent with the message. The element is kept after React
  // lets it go (a ref callback that never forgets it), and read once the picker has replaced it.
  const native = useRef<HTMLInputElement | null>(null);
  const adopted = useRef(false);
  useEffect(() => {
    if (!hydrated || adopted.current) return;
    adopted.current = true;
    const chosen = native.current?.files;
    if (chosen && chosen.length > 0) void picker.add(Array.from(chosen));
    // Once, when the script takes over; picker.add reads the picker as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);
  // The reply box's paperclip is drawn by the server too, with the same classes, where the browser
  // runs scripts (support.css, `scripting`): the box does not change size when the script takes
  // over, so the message field beside it does not jump. Where none run, the browser's own input.
  if (!hydrated)
    return (
      <label
        className={
          compact
            ? 'attach__native attach__native--compact attach__button button button--ghost attach__button--icon'
            : 'attach__native'
        }
      >
        {compact ? <PaperclipIcon /> : null}
        <span className="visually-hidden">{ATTACHMENT_TEXT.attach}</span>
        <input
          ref={(input) => {
            if (input) native.current = input;
          }}
          id={id}
          type="file"
          name="files"
          multiple
          accept={ATTACHMENT_ACCEPT}
        />
      </label>
    );
  return (
    <>
      <label
        className={`attach__button button button--ghost${compact ? ' attach__button--icon' : ''}`}
        title={ATTACHMENT_TEXT.attachHint}
      >
        <PaperclipIcon />
        <span className={compact ? 'visually-hidden' : undefined}>{ATTACHMENT_TEXT.attach}</span>
        <input
          id={id}
          type="file"
          name="files"
          multiple
          accept={ATTACHMENT_ACCEPT}
          className="visually-hidden"
          disabled={disabled}
          aria-describedby={`${id}-hint${picker.error ? ` ${id}-error` : ''}`}
          onChange={(event) => {
            const input = event.currentTarget;
            void picker.add(input.files ?? []).then(() => {
              // The chosen files live in the picker now; the same file may be chosen again.
              input.value = '';
            });
          }}
        />
      </label>
      <span id={`${id}-hint`} className="visually-hidden">
        {ATTACHMENT_TEXT.attachHint}
      </span>
      {picker.files.length > 0 || picker.error || picker.progress !== null ? (
        <div className="attach__tray">
          {picker.files.length > 0 ? (
            <ul className="attach__list" aria-label={ATTACHMENT_TEXT.attachments}>
              {picker.files.map(({ key, file, preview }) => (
                <li key={key} className="attach__item">
                  {preview ? (
                    <img src={preview} alt="" className="attach__preview" />
                  ) : (
                    <span className="attach__pdf" aria-hidden="true">
                      PDF
                    </span>
                  )}
                  <span className="attach__name">{file.name || 'image'}</span>
                  <span className="attach__size">{formatBytes(file.size)}</span>
                  <button
                    type="button"
                    className="attach__remove"
                    aria-label={ATTACHMENT_TEXT.remove(file.name || 'image')}
                    disabled={disabled}
                    onClick={() => picker.remove(key)}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {picker.progress !== null ? (
            <p className="attach__progress">
              <progress max={1} value={picker.progress} aria-label={ATTACHMENT_TEXT.uploading} />
              <span>
                {ATTACHMENT_TEXT.uploading} {Math.round(picker.progress * 100)}%
              </span>
            </p>
          ) : null}
          {picker.error ? (
            <p id={`${id}-error`} className="field__error" role="alert">
              {picker.error}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
