import { Fragment } from 'react';

/** A part of an address with each hyphen marked: a hyphen is no place to break an address. */
function Part({ text }: { text: string }) {
  const pieces = text.split('-');
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {i > 0 ? <span className="email__hyphen">-</span> : null}
          {piece}
        </Fragment>
      ))}
    </>
  );
}

/**
 * An email address that wraps at sensible points on a narrow screen: after the @ and before each
 * dot (<wbr>), never after a hyphen (app.css joins it to what follows, without a character in the
 * text: a copied address stays the address), and only mid-word when a part alone is wider than the
 * line.
 */
export function Email({ address, className }: { address: string; className?: string }) {
  const parts = address.split(/(?=\.)|(?<=@)/);
  return (
    <span className={['email', className].filter(Boolean).join(' ')}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          <Part text={part} />
        </Fragment>
      ))}
    </span>
  );
}
