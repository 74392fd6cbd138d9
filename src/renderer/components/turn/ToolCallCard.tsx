import { memo } from 'react';
import { CircleCheck, CircleSlash, CircleX, LoaderCircle, Wrench } from 'lucide-react';
import type { ToolCallBlock, ToolResultBlock } from '../../../shared/turn';

const STATE_LABEL: Record<ToolCallBlock['state'], string> = {
  streaming: 'Writing the call…',
  complete: 'Waiting for the result…',
  invalid: 'Invalid call',
  truncated: 'Cut off',
};

/** An argument's value as a person reads it: text as text, anything else as compact JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
}

/**
 * A tool call: its name, what it was asked (each argument on its own line), how it went, and its result one
 * click away. Every field is model output, so all of it is text. A call whose arguments did not parse shows
 * them as they came.
 */
export const ToolCallCard = memo(function ToolCallCard({ call, result }: { call: ToolCallBlock; result?: ToolResultBlock }) {
  const status = result ? (result.notRun ? 'Not run' : result.isError ? 'Failed' : 'Done') : STATE_LABEL[call.state];
  const outcome = result ? (result.notRun ? 'not-run' : result.isError ? 'failed' : 'done') : undefined;
  const bad = call.state === 'invalid' || call.state === 'truncated' || outcome === 'failed';
  const args = call.arguments !== undefined && call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? Object.entries(call.arguments) : null;
  const Icon = outcome === 'done' ? CircleCheck : outcome === 'not-run' ? CircleSlash : bad ? CircleX : LoaderCircle;
  return (
    <div className="card tool-card" data-card="tool-call" data-state={call.state} {...(outcome ? { 'data-result': outcome } : {})}>
      <div className="card-head">
        <span className="tool-title">
          <Wrench className="icon" aria-hidden />
          <span className="tool-name">{call.name}</span>
        </span>
        <span className={`tool-status tool-${call.state}${bad ? ' bad' : outcome === 'done' ? ' good' : ''}`}>
          <Icon className="icon" aria-hidden />
          {status}
        </span>
      </div>
      {args && args.length > 0 ? (
        <dl className="tool-args">
          {args.map(([key, value]) => (
            <div key={key} className="tool-arg">
              <dt>{key}</dt>
              <dd>{shown(value)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        call.argumentsRaw.trim() !== '' && call.argumentsRaw.trim() !== '{}' && <pre className="tool-raw">{call.argumentsRaw}</pre>
      )}
      {call.error && <p className="tool-error">{call.error}</p>}
      {result?.note && (
        <p className="tool-note" data-testid="tool-note">
          {result.note}
        </p>
      )}
      {result && (
        <details className="tool-result" data-testid="tool-result">
          <summary>{result.isError ? 'What went wrong' : result.notRun ? 'Why it did not run' : 'Result'}</summary>
          <pre>{result.content}</pre>
        </details>
      )}
    </div>
  );
});
