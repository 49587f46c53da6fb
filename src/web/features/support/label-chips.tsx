/** A ticket's labels as small chips (the inbox's rows, the ticket's header); nothing when it has none. */
export function LabelChips({ labels }: { labels: ReadonlyArray<{ id: string; name: string }> }) {
  if (labels.length === 0) return null;
  return (
    <ul className="label-chips" aria-label="Labels">
      {labels.map((label) => (
        <li key={label.id} className="label-chip">
          {label.name}
        </li>
      ))}
    </ul>
  );
}
