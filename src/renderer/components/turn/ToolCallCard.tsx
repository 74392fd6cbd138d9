import { memo, useEffect, useState } from 'react';
import type { AttachmentBlock, ToolCallBlock } from '../../../shared/turn';
import { imageUrl } from '../../store/attachments';
import { progressKey, progressText, useToolProgress } from '../../store/tool-progress';
import type { ToolAnswer } from './tool-answers';

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

/**
 * A tool call with its arguments, state and result; every field is model or tool output, so all of it is text.
 * While the call runs it says so, with the tool's progress when it reports any (MCP servers); images a tool
 * returned show under its result.
 */
export const ToolCallCard = memo(function ToolCallCard({ call, turnId, answer }: { call: ToolCallBlock; turnId?: string; answer?: ToolAnswer }) {
  const result = answer?.result;
  const running = useToolProgress((s) => (turnId && !result ? s.running[progressKey(turnId, call.id)] : undefined));
  const status = result ? (result.notRun ? 'Not run' : result.isError ? 'Failed' : 'Done') : running ? progressText(running) : STATE_LABEL[call.state];
  const outcome = result ? (result.notRun ? 'not-run' : result.isError ? 'failed' : 'done') : undefined;
  return (
    <div className="card tool-card" data-card="tool-call" data-state={call.state} {...(outcome ? { 'data-result': outcome } : running ? { 'data-running': 'true' } : {})}>
      <div className="card-head">
        <span className="tool-name">{call.name}</span>
        <span className={`tool-status tool-${call.state}`} data-testid={running ? 'tool-progress' : undefined}>
          {status}
        </span>
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
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void imageUrl(block.id).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [block.id]);
  return (
    <figure className="thumb" data-testid="attachment" data-kind="image" title={block.name}>
      {url ? <img src={url} alt={block.name} /> : <div className="thumb-missing">{url === null ? 'Image unavailable' : '…'}</div>}
    </figure>
  );
}
