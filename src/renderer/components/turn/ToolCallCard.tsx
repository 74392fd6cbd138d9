import { memo } from 'react';
import type { ToolCallBlock, ToolResultBlock } from '../../../shared/turn';

const STATE_LABEL: Record<ToolCallBlock['state'], string> = {
  streaming: 'Writing the call…',
  complete: 'Called',
  invalid: 'Invalid call',
  truncated: 'Cut off',
};

function prettyArguments(call: ToolCallBlock): string {
  if (call.arguments !== undefined) return JSON.stringify(call.arguments, null, 2);
  return call.argumentsRaw;
}

/** A tool call with its arguments, state and result; every field is model output, so all of it is text. */
export const ToolCallCard = memo(function ToolCallCard({ call, result }: { call: ToolCallBlock; result?: ToolResultBlock }) {
  const status = result ? (result.notRun ? 'Not run' : result.isError ? 'Failed' : 'Done') : STATE_LABEL[call.state];
  const outcome = result ? (result.notRun ? 'not-run' : result.isError ? 'failed' : 'done') : undefined;
  return (
    <div className="card tool-card" data-card="tool-call" data-state={call.state} {...(outcome ? { 'data-result': outcome } : {})}>
      <div className="card-head">
        <span className="tool-name">{call.name}</span>
        <span className={`tool-status tool-${call.state}`}>{status}</span>
      </div>
      {call.argumentsRaw !== '' && <pre className="tool-args">{prettyArguments(call)}</pre>}
      {call.error && <p className="tool-error">{call.error}</p>}
      {result?.note && (
        <p className="tool-note" data-testid="tool-note">
          {result.note}
        </p>
      )}
      {result && (
        <details className="tool-result" data-testid="tool-result">
          <summary>Result{result.isError ? ' (error)' : ''}</summary>
          <pre>{result.content}</pre>
        </details>
      )}
    </div>
  );
});
