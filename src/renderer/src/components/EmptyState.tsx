import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon.tsx';

/** What an empty place is for, and the one thing to do next. */
export function EmptyState({
  title,
  children,
  action,
  icon = 'search',
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  icon?: IconName;
}) {
  return (
    <div className="empty-state">
      <Icon name={icon} className="empty-icon" />
      <p className="empty-title">{title}</p>
      {children && <p className="empty-body">{children}</p>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}
