import { memo } from 'react';
import type { JsonValue } from '../../../shared/json';
import { turnText, type Turn } from '../../../shared/turn';
import { ToolApproval } from './ToolApproval';

/** The kinds of system turn that have a card; any other source reloads as plain text (DESIGN.md §5). */
const TITLES: Record<string, string> = {
  'context-refused': 'Not sent: the conversation is longer than the context window',
  'model-does-not-fit': 'Not loaded: the model does not fit in memory',
  error: 'Error',
  'tool-approval': 'Tool approval',
  'user-interjection': 'You interjected',
  'model-switched': 'Model switched',
};

function asText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function label(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ');
}

/** A system turn: a card by source, each meta field shown as text, never as HTML. */
export const SystemCard = memo(function SystemCard({ turn }: { turn: Turn }) {
  const text = turnText(turn);
  const title = turn.source ? TITLES[turn.source] : undefined;
  if (!turn.source || title === undefined) return <div className="system-text">{text}</div>;
  const fields = Object.entries(turn.meta);
  return (
    <div className="card system-card" data-card={turn.source}>
      <div className="card-head">{title}</div>
      {text && <p className="system-text">{text}</p>}
      {fields.length > 0 && (
        <dl className="meta">
          {fields.map(([key, value]) => (
            <div key={key} className="meta-row">
              <dt>{label(key)}</dt>
              <dd>{asText(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {turn.source === 'tool-approval' && <ToolApproval turn={turn} />}
    </div>
  );
});
