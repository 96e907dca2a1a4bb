// Grey bars where content is coming, so the layout does not jump; announced once as "Loading …", bars hidden.
export function Skeleton({ label, lines = 3, variant = 'text' }: { label: string; lines?: number; variant?: 'text' | 'rows' | 'block' }) {
  return (
    <div className={`skeleton skeleton-${variant}`}>
      <span role="status" className="visually-hidden">
        {label}
      </span>
      <div aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          <span key={i} className="skeleton-bar" />
        ))}
      </div>
    </div>
  );
}
