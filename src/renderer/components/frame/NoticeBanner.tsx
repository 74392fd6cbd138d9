import { clearNotice, refreshConversations, refreshModels, reopenActive, type Notice } from '../../store';
import { openModelPicker } from '../composer/focus-composer';
import { Banner } from './Banner';

/**
 * The notice banner, its button as the notice says (store/notice.ts): Retry repeats the failed action, or reads
 * everything shown again where none was left; "Choose a model" opens the picker where the chosen model changed by
 * itself; a notice that only informs ("The chat you had open was deleted in another window…") has Close only.
 * Round 10 showed Retry on those too, where it did nothing useful.
 */
export function NoticeBanner({ notice }: { notice: Notice }) {
  const { message, action } = notice;
  switch (action.kind) {
    case 'choose-model':
      return (
        <Banner
          testId="notice"
          message={message}
          onClose={clearNotice}
          extra={
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
          }
        />
      );
    case 'info':
      return <Banner testId="notice" message={message} onClose={clearNotice} />;
    case 'retry':
    case 'reread':
      return (
        <Banner
          testId="notice"
          message={message}
          onRetry={() => {
            clearNotice();
            if (action.kind === 'retry') action.run();
            else void Promise.all([refreshConversations(), refreshModels(), reopenActive()]);
          }}
          onClose={clearNotice}
        />
      );
  }
}
