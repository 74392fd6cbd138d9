import { useState } from 'react';
import { refreshModels, useStore } from '../../store';
import { reconnectServe } from '../../serve-bridge';
import { firebrand } from '../../firebrand';
import { BUILTIN_CONNECTION_ID } from '../../../shared/connections';
import { openModelsScreen } from '../models/open-models';
import { Banner } from './Banner';
import { NoticeBanner } from './NoticeBanner';

/**
 * The app's failures as banners, each said once: the serve link being down hides the messages it causes, a
 * notice that says what the model list already says is not repeated, and a closed banner of a lasting state (the
 * serve link, the model list) stays closed until its message changes. A notice is an event: closing it clears it,
 * and the next failure shows, in the same words or not (the audit's files #4: a repeated failure was silent).
 */
export function Banners({ onOpenSettings }: { onOpenSettings: () => void }) {
  const notice = useStore((s) => s.notice);
  const modelsError = useStore((s) => s.modelsError);
  // Reached, with nothing listed: the way out is Models (pull, download, add a file). An empty models folder is
  // watched, so trying again changes nothing until a file comes; a server's list is asked again by Retry.
  const modelsEmpty = useStore((s) => s.modelsError !== null && !s.modelsUnreachable);
  const builtinActive = useStore((s) => s.settings?.activeConnectionId === BUILTIN_CONNECTION_ID);
  const problem = useStore((s) => s.serveProblem);
  const serveProblem = problem?.message ?? null;
  // A link that drops hides the failures it causes until it is back (then they show); one given up on (a token
  // refused) is for good, and what the user does then (Send) is answered in words of its own, not hidden.
  const linkDown = problem?.kind === 'unreachable';
  // The chats open read-only on a full disk (main's db/read-only-copy.ts): until a restart, so no Retry.
  const readOnly = useStore((s) => s.settings?.readOnly ?? null);
  const [closed, setClosed] = useState<Record<string, string>>({});
  const shown = (id: string, message: string | null): message is string => message !== null && closed[id] !== message;
  const close = (id: string, message: string) => setClosed((c) => ({ ...c, [id]: message }));
  const showModels = serveProblem === null && shown('models-error', modelsError);
  const showNotice = !linkDown && notice !== null && notice.message !== modelsError && notice.message !== serveProblem;
  const showReadOnly = shown('read-only', readOnly);
  if (!shown('serve-problem', serveProblem) && !showModels && !showNotice && !showReadOnly) return null;
  return (
    <div className="banners">
      {showReadOnly && <Banner testId="read-only" message={readOnly} onClose={() => close('read-only', readOnly)} />}
      {shown('serve-problem', serveProblem) && <Banner testId="serve-problem" message={serveProblem} onRetry={reconnectServe} onClose={() => close('serve-problem', serveProblem)} />}
      {showModels && modelsError && (
        <Banner
          testId="models-error"
          message={modelsError}
          {...(modelsEmpty && builtinActive
            ? {}
            : {
                onRetry: () => {
                  void refreshModels();
                  void firebrand().models.watchNow({}).catch(() => undefined);
                },
              })}
          onClose={() => close('models-error', modelsError)}
          extra={
            modelsEmpty ? (
              <button type="button" className="small" data-testid="banner-open-models" onClick={openModelsScreen}>
                Open Models
              </button>
            ) : (
              <button type="button" className="small" onClick={onOpenSettings}>
                Settings
              </button>
            )
          }
        />
      )}
      {showNotice && notice && <NoticeBanner notice={notice} />}
    </div>
  );
}
