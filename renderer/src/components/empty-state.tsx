import type { ReactNode } from 'react';

/** What an empty list means and what to do next. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children && <p className="empty-hint">{children}</p>}
      {action}
    </div>
  );
}
