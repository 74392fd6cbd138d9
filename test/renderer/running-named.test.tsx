/**
 * Models → Running where the Ollama in use could not be asked: it said "What Ollama has loaded is not known" of a
 * second Ollama the user called "Desk GPU", where the banner and the composer call it by that name.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { RunningModels } from '../../src/renderer/components/models/RunningModels';
import { useModelsStore } from '../../src/renderer/store/models-slice';

beforeEach(() => {
  useModelsStore.setState({ running: [], runningRead: false });
});

describe('the Running panel where the Ollama in use could not be asked', () => {
  it('names it as the user named it', () => {
    expect(renderToStaticMarkup(<RunningModels ollama="Desk GPU" />)).toContain('What Desk GPU has loaded is not known: it could not be asked. Refresh asks again.');
    expect(renderToStaticMarkup(<RunningModels ollama="Ollama" />)).toContain('What Ollama has loaded is not known');
  });

  it('says nothing of it where the connection in use is not an Ollama', () => {
    expect(renderToStaticMarkup(<RunningModels ollama={null} />)).not.toContain('is not known');
  });
});
