import type { ReactNode } from 'react';

/**
 * The list tables of the support and admin pages: a scrolling wrapper, a caption for screen
 * readers, one header row. Rows are the caller's `<tr>`s; each cell carries `data-label` (its
 * column) so the table folds into labelled cards on a phone (support.css).
 */
export function DataTable({
  caption,
  columns,
  className,
  children,
}: {
  caption: string;
  columns: readonly string[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className={['ticket-table', className].filter(Boolean).join(' ')}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
