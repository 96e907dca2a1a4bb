import type { ReactNode } from 'react';
import type { KeyStatus } from '../../../shared/domain.ts';
import { shownText } from '../lib/text.ts';
import { Icon, type IconName } from './Icon.tsx';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'premium';

/** A short label with a tone; never colour alone: each has its word and an icon whose shape differs by kind. */
export function Badge({ tone, icon, children, title }: { tone: Tone; icon?: IconName; children: ReactNode; title?: string }) {
  return (
    <span className={`badge tone-${tone}`} title={title}>
      {icon && <Icon name={icon} />}
      <span>{children}</span>
    </span>
  );
}

const STATUS: Record<KeyStatus | 'deleted', { tone: Tone; icon: IconName; label: string; title: string }> = {
  generated: { tone: 'info', icon: 'circle', label: 'Generated', title: 'Not yet activated by any machine' },
  active: { tone: 'success', icon: 'dot', label: 'Active', title: 'Activated and in use' },
  deleted: { tone: 'neutral', icon: 'cross', label: 'Deleted', title: 'Deleted from the service' },
};

export function StatusBadge({ status }: { status: KeyStatus | 'deleted' }) {
  const s = STATUS[status];
  return (
    <Badge tone={s.tone} icon={s.icon} title={s.title}>
      {s.label}
    </Badge>
  );
}

export function PremiumBadge() {
  return (
    <Badge tone="premium" icon="star">
      Premium
    </Badge>
  );
}

export function ExpiredBadge({ title }: { title?: string }) {
  return (
    <Badge tone="warning" icon="clock" {...(title ? { title } : {})}>
      Expired
    </Badge>
  );
}

export function BoundBadge({ hwid }: { hwid: string }) {
  return (
    <Badge tone="neutral" icon="lock" title={`Bound to ${shownText(hwid)}`}>
      Bound
    </Badge>
  );
}

/** Whether an expiry instant has passed (a missing one never has). */
export const isExpired = (expiresAt: string | null | undefined, now = Date.now()): boolean => {
  if (!expiresAt) return false;
  const t = Date.parse(expiresAt);
  return !Number.isNaN(t) && t < now;
};

/** Every badge a key earns, in a fixed order: status, expired, premium, bound. */
export function KeyBadges({
  status,
  isPremium,
  expiresAt,
  hwid,
}: {
  status: KeyStatus | 'deleted';
  isPremium: boolean;
  expiresAt: string | null;
  hwid: string | null;
}) {
  return (
    <span className="badges">
      <StatusBadge status={status} />
      {status !== 'deleted' && isExpired(expiresAt) && <ExpiredBadge />}
      {isPremium && <PremiumBadge />}
      {hwid && status !== 'deleted' && <BoundBadge hwid={hwid} />}
    </span>
  );
}
