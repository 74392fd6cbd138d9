import { memo } from 'react';
import { CircleCheck, CircleSlash, CircleX, LoaderCircle, Wrench } from 'lucide-react';
import type { AttachmentBlock, ToolCallBlock } from '../../../shared/turn';
import { progressKey, progressText, useToolProgress } from '../../store/tool-progress';
import type { ToolAnswer } from './tool-answers';
import { toolErrorLead } from './tool-error-lead';
import { useImageUrl } from './use-image-url';

const STATE_LABEL: Record<ToolCallBlock['state'], string> = {
  streaming: 'Writing the call…',
  complete: 'Waiting for the result…',
  invalid: 'Invalid call',
  truncated: 'Cut off',
};

type Outcome = 'done' | 'failed' | 'not-run' | 'stopped';
const OUTCOME_LABEL: Record<Outcome, string> = { done: 'Done', failed: 'Failed', 'not-run': 'Not run', stopped: 'Stopped' };
const RESULT_SUMMARY: Record<Outcome, string> = { done: 'Result', failed: 'What went wrong', 'not-run': 'Why it did not run', stopped: 'What happened' };

/** An argument's value as a person reads it: text as text, anything else as compact JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
}

/** A call's arguments, each on its own row: its name, then its value as text (the tool card's and the approval card's). */
export function ArgumentRows({ args }: { args: [string, unknown][] }) {
  return (
    <dl className="tool-args">
      {args.map(([key, value]) => (
        <div key={key} className="tool-arg">
          <dt>{key}</dt>
          <dd>{shown(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function isArgumentObject(value: unknown): value is Record<string, unknown> {
  return value !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The call's arguments as name and value rows. A call refused by the tool's schema keeps no parsed arguments, yet its
 * JSON is often whole (a number sent as text): it showed as one line of raw JSON, the only card that did. Only
 * arguments that do not parse as an object are shown as they came.
 */
function argumentRows(call: ToolCallBlock): [string, unknown][] | null {
  if (isArgumentObject(call.arguments)) return Object.entries(call.arguments);
  if (call.state !== 'invalid') return null;
  try {
    const parsed: unknown = JSON.parse(call.argumentsRaw);
    return isArgumentObject(parsed) ? Object.entries(parsed) : null;
  } catch {
    return null;
  }
}

/**
 * A result as a person reads it: a whole JSON object or array (get-structured-content's weather, a search's hits)
 * laid out one field per line, where it was one run-on line of JSON. Anything else is shown as it came. Only the
 * card changes: the model reads the result as the tool sent it.
 */
function readable(content: string): string {
  const text = content.trim();
  if (!(text.startsWith('{') || text.startsWith('[')) || text.length > 200_000) return content;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? JSON.stringify(value, null, 2) : content;
  } catch {
    return content;
  }
}

/** The result is the call's error word for word (what an invalid call sends the model): the red line said it already. */
const saidAbove = (content: string, error: string | undefined) => error !== undefined && content.trim() === error.trim();

/**
 * A tool call: its name, what it was asked (each argument on its own line), how it went, and its result one
 * click away. Every field is model or tool output, so all of it is text. A call whose arguments did not parse
 * shows them as they came. While the call runs it says so, with the tool's progress when it reports any (MCP
 * servers); images a tool returned show under its result.
 */
export const ToolCallCard = memo(function ToolCallCard({ call, turnId, answer }: { call: ToolCallBlock; turnId?: string; answer?: ToolAnswer }) {
  const result = answer?.result;
  const running = useToolProgress((s) => (turnId && !result ? s.running[progressKey(turnId, call.id)] : undefined));
  // A call the user stopped while it ran is an outcome of the stop, not a failure of the tool.
  const outcome = result ? (result.notRun ? 'not-run' : result.stopped ? 'stopped' : result.isError ? 'failed' : 'done') : undefined;
  // Its approval card waits below: "Waiting for the result…" read as if the call ran (MCP hunt).
  const awaiting = !outcome && !running && call.state === 'complete' && answer?.awaitingApproval === true;
  const status = outcome ? OUTCOME_LABEL[outcome] : running ? progressText(running) : awaiting ? 'Waiting for your approval…' : STATE_LABEL[call.state];
  const bad = call.state === 'invalid' || call.state === 'truncated' || outcome === 'failed';
  const args = argumentRows(call);
  // A failure in a well-known system code leads with a plain sentence; the tool's own words stay under What went wrong.
  const lead = outcome === 'failed' && result ? toolErrorLead(result.content) : undefined;
  const Icon = outcome === 'done' ? CircleCheck : outcome === 'not-run' || outcome === 'stopped' ? CircleSlash : bad ? CircleX : LoaderCircle;
  return (
    <div className="card tool-card" data-card="tool-call" data-state={call.state} {...(outcome ? { 'data-result': outcome } : running ? { 'data-running': 'true' } : {})}>
      <div className="card-head">
        <span className="tool-title">
          <Wrench className="icon" aria-hidden />
          <span className="tool-name">{call.name}</span>
        </span>
        <span className={`tool-status tool-${call.state}${bad ? ' bad' : outcome === 'done' ? ' good' : ''}`} data-testid={running ? 'tool-progress' : undefined}>
          <Icon className="icon" aria-hidden />
          {status}
        </span>
      </div>
      {args && args.length > 0 ? (
        <ArgumentRows args={args} />
      ) : (
        call.argumentsRaw.trim() !== '' && call.argumentsRaw.trim() !== '{}' && <pre className="tool-raw">{call.argumentsRaw}</pre>
      )}
      {call.error && <p className="tool-error">{call.error}</p>}
      {lead && (
        <p className="tool-error" data-testid="tool-error-lead">
          {lead}
        </p>
      )}
      {result?.note && (
        <p className="tool-note" data-testid="tool-note">
          {result.note}
        </p>
      )}
      {result && !saidAbove(result.content, call.error) && (
        <details className="tool-result" data-testid="tool-result">
          <summary>{outcome ? RESULT_SUMMARY[outcome] : 'Result'}</summary>
          <pre>{readable(result.content)}</pre>
        </details>
      )}
      {answer && answer.images.length > 0 && (
        <div className="attachments">
          {answer.images.map((b) => (
            <ResultImage key={b.id} block={b} />
          ))}
        </div>
      )}
    </div>
  );
});

/** An image a tool returned, from the blob store like an attachment (main gives only checked image types a URL). */
function ResultImage({ block }: { block: AttachmentBlock }) {
  const url = useImageUrl(block.id);
  return (
    <figure className="thumb" data-testid="attachment" data-kind="image" title={block.name}>
      {url ? <img src={url} alt={block.name} /> : <div className="thumb-missing">{url === null ? 'Image unavailable' : '…'}</div>}
    </figure>
  );
}
