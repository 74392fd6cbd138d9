import { CircleAlert, Info, RotateCw, TriangleAlert, X } from 'lucide-react';
import { focusComposer } from '../composer/focus-composer';

interface Props {
  testId: string;
  message: string;
  /** Tries the failed thing again (re-reads the models, reconnects, repeats the action); none where only a restart helps. */
  onRetry?: () => void;
  onClose: () => void;
  /** Another way out beside Retry (e.g. open Settings to change the address). */
  extra?: React.ReactNode;
  /**
   * 'info' where nothing failed (an export saved): drawn calmly and said politely (role="status"), not as an alert
   * in the error's red, which a user read as a failed export. 'warning' where nothing failed but the user has a step
   * to take (the chosen model changed by itself, "Choose a model first."): amber with a warning sign, said politely
   * too; drawn in the error's red, a user read a model gone from the server as Firebrand failing.
   */
  tone?: 'error' | 'warning' | 'info';
}

/**
 * One failure, in words, with close, and Retry wherever trying again can help (not a read-only start: a restart);
 * or, with tone 'warning', a step the user has to take, or with tone 'info', a notice that only informs.
 */
export function Banner({ testId, message, onRetry, onClose, extra, tone = 'error' }: Props) {
  // A banner that goes (closed, or a notice retried) takes the focus with it: the message box gets it back, once
  // the click's update is drawn.
  const then = (act: () => void) => () => {
    act();
    requestAnimationFrame(() => {
      if (document.activeElement === null || document.activeElement === document.body) focusComposer();
    });
  };
  return (
    <div className={tone === 'error' ? 'banner' : `banner banner-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId} data-tone={tone}>
      <ToneIcon tone={tone} />
      <span className="banner-text">{message}</span>
      <span className="banner-actions">
        {extra}
        {onRetry && (
          <button type="button" className="small" data-testid="banner-retry" onClick={then(onRetry)}>
            <RotateCw className="icon" aria-hidden />
            Retry
          </button>
        )}
        <button type="button" className="icon-btn small" data-testid="banner-close" aria-label="Close this message" title="Close" onClick={then(onClose)}>
          <X className="icon" aria-hidden />
        </button>
      </span>
    </div>
  );
}

function ToneIcon({ tone }: { tone: NonNullable<Props['tone']> }) {
  if (tone === 'info') return <Info className="icon" aria-hidden />;
  if (tone === 'warning') return <TriangleAlert className="icon" aria-hidden />;
  return <CircleAlert className="icon" aria-hidden />;
}
