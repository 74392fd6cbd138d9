import { refreshConversations, refreshModels, reopenActive, useStore } from '../../store';
import { openModelPicker } from '../composer/focus-composer';
import { Banner } from './Banner';

/**
 * The notice banner: a failed action's message with Retry (the action again where it left one, else everything shown
 * read again), or, for a notice that the chosen model changed by itself (`modelChanged`), "Choose a model", which
 * opens the picker. Round 9 left Retry on "Helper is no longer an alias (it was deleted); …": it only read the lists
 * again, which changed nothing.
 */
export function NoticeBanner({ message, retry, modelChanged }: { message: string; retry: (() => void) | null; modelChanged: boolean }) {
  const clear = () => useStore.setState({ notice: null, noticeRetry: null, choiceNotice: null });
  if (modelChanged) {
    return (
      <Banner
        testId="notice"
        message={message}
        onClose={clear}
        extra={
          <button
            type="button"
            className="small"
            data-testid="notice-choose-model"
            onClick={() => {
              clear();
              openModelPicker();
            }}
          >
            Choose a model
          </button>
        }
      />
    );
  }
  return (
    <Banner
      testId="notice"
      message={message}
      onRetry={() => {
        clear();
        // The action that failed, where it left one; otherwise read everything shown again.
        if (retry) retry();
        else void Promise.all([refreshConversations(), refreshModels(), reopenActive()]);
      }}
      onClose={clear}
    />
  );
}
