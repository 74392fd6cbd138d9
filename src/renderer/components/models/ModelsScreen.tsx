import { useEffect } from 'react';
import { connectModelsStore, loadModelsScreen, useModelsStore } from '../../store/models-slice';
import { AliasEditor } from './AliasEditor';
import { ModelList } from './ModelList';
import { PullBox } from './PullBox';
import { RunningModels } from './RunningModels';
import './models.css';

/** The model manager: pull, list, inspect, delete, running models, context windows and aliases. */
export function ModelsScreen({ onClose }: { onClose: () => void }) {
  const error = useModelsStore((s) => s.error);
  useEffect(() => {
    connectModelsStore();
    void loadModelsScreen();
  }, []);
  return (
    <div className="mm-screen" role="dialog" aria-label="Models" data-testid="models-screen">
      <div className="mm-row mm-header">
        <h2>Models</h2>
        <button type="button" data-testid="models-close" onClick={onClose}>Close</button>
      </div>
      {error && <p role="alert" className="mm-error" data-testid="models-screen-error">{error}</p>}
      <PullBox />
      <ModelList />
      <RunningModels />
      <AliasEditor />
    </div>
  );
}
