import { memo } from 'react';
import {
  CONTEXT_REFUSED_ADVICE,
  contextRefusedMeta,
  stepLimitMeta,
  stepLimitText,
  SYSTEM_CARD_TITLES,
  toolApprovalLead,
  toolApprovalMeta,
  type ContextRefusedMeta,
  type ToolApprovalMeta,
} from '../../../shared/system-turns';
import { compactionMeta, continuedMeta, droppedMeta, summaryFailedMeta, summaryFailedText } from '../../../shared/context-edits';
import { turnText, type Turn } from '../../../shared/turn';
import { CompactionCard, ContinuedCard, DroppedCard, RefusalChoices, RefusalParts, RefusalWays } from '../context/ContextCards';
import { ToolApproval } from './ToolApproval';
import { ArgumentRows } from './ToolCallCard';
import { formatExactTokens } from '../../format';

/**
 * A system turn (DESIGN.md §5): one small card per kind, its words derived from the same meta as the turn's text
 * (src/shared/system-turns.ts), every untrusted field rendered as text. A kind without a card reloads as plain
 * text; a known kind whose meta does not fit (an older row) shows its stored text in the kind's card.
 */
export const SystemCard = memo(function SystemCard({ turn }: { turn: Turn }) {
  const source = turn.source;
  if (source === 'context-refused') {
    const meta = contextRefusedMeta(turn.meta);
    return (
      <Card source={source} title={SYSTEM_CARD_TITLES[source]}>
        {meta ? <ContextRefused meta={meta} turn={turn} /> : <Stored turn={turn} />}
        <RefusalChoices turn={turn} />
      </Card>
    );
  }
  if (source === 'error') {
    const meta = stepLimitMeta(turn.meta);
    if (meta) return <Card source={source} title="Stopped: too many tool steps"><p className="system-text">{stepLimitText(meta)}</p></Card>;
    const failed = summaryFailedMeta(turn.meta);
    if (failed) return <Card source={source} title="No summary made" reason="summary-failed"><p className="system-text">{summaryFailedText(failed)}</p></Card>;
    return <Card source={source} title={SYSTEM_CARD_TITLES[source]}><Stored turn={turn} /></Card>;
  }
  if (source === 'compaction') {
    const meta = compactionMeta(turn.meta);
    const title = meta?.from ? 'Started from a summary of an earlier chat' : 'Summary sent in place of older turns';
    return <Card source={source} title={title}>{meta ? <CompactionCard meta={meta} /> : <Stored turn={turn} />}</Card>;
  }
  if (source === 'context-dropped') {
    const meta = droppedMeta(turn.meta);
    return <Card source={source} title={SYSTEM_CARD_TITLES[source]}>{meta ? <DroppedCard meta={meta} text={turnText(turn)} /> : <Stored turn={turn} />}</Card>;
  }
  if (source === 'continued') {
    const meta = continuedMeta(turn.meta);
    return <Card source={source} title={SYSTEM_CARD_TITLES[source]}>{meta ? <ContinuedCard meta={meta} /> : <Stored turn={turn} />}</Card>;
  }
  if (source === 'tool-approval') {
    const meta = toolApprovalMeta(turn.meta);
    return <Card source={source} title={SYSTEM_CARD_TITLES[source]}>{meta ? <Approval turn={turn} meta={meta} /> : <Stored turn={turn} />}</Card>;
  }
  if (source === 'model-does-not-fit') return <Card source={source} title={SYSTEM_CARD_TITLES[source]}><Stored turn={turn} /></Card>;
  return <div className="system-text">{turnText(turn)}</div>;
});

function Card({ source, title, reason, children }: { source: string; title: string; reason?: string; children: React.ReactNode }) {
  return (
    <div className="card system-card" data-card={source} {...(reason ? { 'data-reason': reason } : {})}>
      <div className="card-head">{title}</div>
      {children}
    </div>
  );
}

function Stored({ turn }: { turn: Turn }) {
  const text = turnText(turn);
  return text ? <p className="system-text">{text}</p> : null;
}

function ContextRefused({ meta, turn }: { meta: ContextRefusedMeta; turn: Turn }) {
  const need = formatExactTokens(meta.estimate);
  return (
    <>
      <p className="system-text">
        {/* Grouped as the rest of the card groups its numbers ("n_ctx 2,048"): it read "2340 tokens needed". */}
        {meta.counted === 'server' ? `${need} tokens needed (counted by the server)` : meta.counted === 'tokenizer' ? `${need} tokens needed (counted exactly)` : `About ${need} tokens needed`}; {meta.model}
        {meta.serverRefused ? ' now holds ' : ' holds '}
        {formatExactTokens(meta.window)}.
      </p>
      {meta.largest.length > 0 && (
        <>
          <p className="system-label">Largest parts</p>
          <ul className="system-list">
            {meta.largest.map((item, i) => (
              <li key={i}>
                {item.label} — about {formatExactTokens(item.tokens)} tokens
              </li>
            ))}
          </ul>
        </>
      )}
      {meta.parts && <RefusalParts meta={meta} />}
      {meta.ways ? <RefusalWays meta={meta} turn={turn} /> : <p className="system-text">{CONTEXT_REFUSED_ADVICE}</p>}
    </>
  );
}

const APPROVAL_STATUS: Record<ToolApprovalMeta['state'], string> = {
  pending: 'Waiting for you',
  allowed: 'Allowed',
  denied: 'Not allowed',
  stopped: 'Stopped',
  interrupted: 'Not run',
  withdrawn: 'Not run',
};

/**
 * The arguments an approval card names, when its call is a whole JSON object (an MCP tool's). Anything else (a URL,
 * a call cut short, one that names the server's own tool first) is shown as the sentence has it.
 */
function callArguments(call: string): [string, unknown][] | null {
  if (!call.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(call);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : null;
  } catch {
    return null;
  }
}

function Approval({ turn, meta }: { turn: Turn; meta: ToolApprovalMeta }) {
  const status = meta.state === 'allowed' && meta.decision === 'allow-conversation' ? 'Allowed in this chat' : meta.state === 'allowed' && meta.decision === 'allow-always' ? 'Always allowed' : APPROVAL_STATUS[meta.state];
  // The user decides on what the call will do: its arguments one per row, as on the call's own card, where the card
  // showed them as one line of JSON ("wants to run: {"path":"/home/me/.bashrc","content":"…"}", or "run: {}").
  const args = callArguments(meta.call);
  // The state is one sentence of its own, and what the call was asked comes after it: tacked on, it read "…closed
  // while it waited for your approval, with no arguments." and "…your approval: https://…".
  const none = args !== null && args.length === 0 ? (meta.state === 'pending' ? ' It has no arguments.' : ' It had no arguments.') : '';
  return (
    <>
      <p className="system-text" data-state={meta.state}>
        <strong>{status}.</strong> {`${toolApprovalLead(meta)}.${none}`}
      </p>
      {args !== null && args.length > 0 && <ArgumentRows args={args} />}
      {args === null && meta.call.trim() !== '' && <pre className="tool-raw" data-testid="approval-call">{meta.call}</pre>}
      {meta.state === 'pending' && <ToolApproval turn={turn} />}
    </>
  );
}
