import { ATTACHMENT_TEXT, formatBytes } from '../../../contracts/attachments.ts';
import type { Attachment } from '../../../contracts/attachments.schemas.ts';
import { DocumentIcon } from '../../components/ui/icons.tsx';

/**
 * A message's files in the thread: photos as thumbnails that open the full photo in a new tab,
 * PDFs as downloads with their size. The URLs answer only the ticket's owner and admins.
 */
export function MessageAttachments({ attachments }: { attachments: readonly Attachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="bubble__files" aria-label={ATTACHMENT_TEXT.attachments}>
      {attachments.map((file) =>
        file.thumbnailUrl ? (
          <li key={file.id} className="bubble__photo">
            <a href={file.url} target="_blank" rel="noopener" aria-label={ATTACHMENT_TEXT.openImage(file.name)}>
              <img
                src={file.thumbnailUrl}
                alt={file.name}
                loading="lazy"
                decoding="async"
                width={
                  file.width && file.height ? Math.round((240 * file.width) / Math.max(file.width, file.height)) : 240
                }
                height={
                  file.width && file.height ? Math.round((240 * file.height) / Math.max(file.width, file.height)) : 240
                }
              />
            </a>
          </li>
        ) : (
          <li key={file.id} className="bubble__file">
            <a href={file.url} download={file.name}>
              <DocumentIcon />
              <span className="bubble__file-name">{file.name}</span>
              <span className="bubble__file-size">{formatBytes(file.size)}</span>
            </a>
          </li>
        ),
      )}
    </ul>
  );
}
