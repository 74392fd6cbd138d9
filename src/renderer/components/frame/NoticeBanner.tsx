import { clearNotice, refreshConversations, refreshModels, reopenActive, type Notice, type NoticeAction } from '../../store';
import { openModelPicker } from '../composer/focus-composer';
import { Banner } from './Banner';

/**
 * The notice banner, its button as the notice says (store/notice.ts): Retry repeats the failed action, or reads
 * everything shown again where none was left; "Choose a model" opens the picker where the chosen model changed by
 * itself; a notice that only informs ("The chat you had open was deleted in another window…") has Close only.
 * Round 10 showed Retry on those too, where it did nothing useful. A notice that informs is drawn calmly; one that
 * asks the user to choose a model is a warning (amber), not a failure; a refusal with nothing to retry keeps the
 * error's look.
 */
export function NoticeBanner({ notice: { message, action } }: { notice: Notice }) {
  return (
    <Banner
      testId="notice"
      message={message}
      onRetry={retryOf(action)}
      onClose={clearNotice}
      extra={action.kind === 'choose-model' ? <ChooseModel /> : undefined}
      tone={toneOf(action)}
    />
  );
}

/** How the banner looks and is said: calm for news, a warning for a step the user must take, else a failure. */
function toneOf(action: NoticeAction): 'error' | 'warning' | 'info' {
  if (action.kind === 'info') return 'info';
  return action.kind === 'choose-model' ? 'warning' : 'error';
}

/** What Retry does for `action`; none for a notice that has no Retry. */
function retryOf(action: NoticeAction): (() => void) | undefined {
  if (action.kind !== 'retry' && action.kind !== 'reread') return undefined;
  return () => {
    clearNotice();
    if (action.kind === 'retry') action.run();
    else void Promise.all([refreshConversations(), refreshModels(), reopenActive()]);
  };
}

function ChooseModel() {
  return (
    <button
      type="button"
      className="small"
      data-testid="notice-choose-model"
      onClick={() => {
        clearNotice();
        openModelPicker();
      }}
    >
      Choose a model
    </button>
  );
}
