import { Link } from 'react-router';
import { Notice } from '../../components/ui/notice.tsx';

/** The result line, shared with the other features (components/ui/notice.tsx). */
export { Notice };

/** A page whose data could not be read: why, and a link that reads it again (no JavaScript needed). */
export function ReadFailed({ message, retryTo }: { message: string | null; retryTo: string }) {
  if (!message) return null;
  return (
    <Notice tone="error">
      {message}{' '}
      <Link to={retryTo} preventScrollReset>
        Try again
      </Link>
    </Notice>
  );
}
