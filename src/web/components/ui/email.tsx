import { Fragment } from 'react';

/**
 * An email address that wraps at sensible points on a narrow screen: after the @ and before each
 * dot (<wbr>), and only mid-word when a part alone is wider than the line.
 */
export function Email({ address, className }: { address: string; className?: string }) {
  const parts = address.split(/(?=\.)|(?<=@)/);
  return (
    <span className={['email', className].filter(Boolean).join(' ')}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
